// When two vault names are the same (docs/product.md §5 "Vault creation", issue 25): an account
// may not hold two vaults whose names differ only in case or surrounding spaces, since their
// cards could not be told apart. The server refuses such a name (409, messages.vaults.duplicateName)
// on create and rename; the wizard checks it before submitting. There is no unique index: a
// database from before the rule may already hold duplicates, and they stay readable.

/** The form of a name that two vaults may not share: trimmed, NFC, lower case. */
export const vaultNameKey = (name: string): string => name.trim().normalize('NFC').toLowerCase();

/** Whether `name` is taken by one of `vaults`, leaving out the vault `exceptId` (a rename). */
export function isVaultNameTaken(
  vaults: readonly { id: string; name: string }[],
  name: string,
  exceptId?: string,
): boolean {
  const key = vaultNameKey(name);
  return vaults.some((v) => v.id !== exceptId && vaultNameKey(v.name) === key);
}
