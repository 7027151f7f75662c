// "Last accessed" on the vault cards (docs/product.md §2) is kept on this device (ADR 0007): the
// server is no longer told when a vault is unlocked, since unlock times say a lot about a person.
// Another browser shows its own dates.
const keyOf = (vaultId: string) => `sealvault:last-accessed:${vaultId}`;

/** When this vault was last unlocked on this device, ISO 8601, or null. */
export function lastAccessedOf(vaultId: string, storage: Storage = localStorage): string | null {
  try {
    const value = storage.getItem(keyOf(vaultId));
    return value && !Number.isNaN(Date.parse(value)) ? value : null;
  } catch {
    return null; // storage disabled: the card says 'Never'
  }
}

export function recordAccess(
  vaultId: string,
  now: Date = new Date(),
  storage: Storage = localStorage,
): void {
  try {
    storage.setItem(keyOf(vaultId), now.toISOString());
  } catch {
    // Storage full or disabled: the date is a convenience, the unlock stands.
  }
}

export function forgetAccess(vaultId: string, storage: Storage = localStorage): void {
  try {
    storage.removeItem(keyOf(vaultId));
  } catch {
    // nothing to forget
  }
}
