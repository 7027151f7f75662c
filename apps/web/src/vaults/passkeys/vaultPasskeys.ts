// Adding and removing a vault's passkeys (issue 30). A passkey is a key slot (vault-format.md
// "Passkey slots"): the new slot list goes to the server through the key-update route with
// compare-and-swap on the key revision, and the manifest pins it the way a password change does
// (manifest/passwordChange.ts): the new slot is pinned next to the old ones first, then the
// server's key changes, then the manifest keeps only what the key holds.
import { asVaultId, MAX_PASSKEY_SLOTS, type SessionId } from '@sealvault/crypto';
import { vaultsApi, type KeySlot, type Vault } from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { formatDate } from '../../i18n/format.ts';
import { i18n } from '../../i18n/i18n.ts';
import { commitSlots, noteRotation } from '../manifest/vaultManifest.ts';
import { createVaultPasskey, PasskeyError, passkeyTexts } from './webauthn.ts';

export const manageTexts = {
  full: () =>
    i18n.t('A vault has at most {{max}} passkeys. Remove one to add another.', {
      max: MAX_PASSKEY_SLOTS,
    }),
} as const;

/** The vault's passkey slots. */
export const passkeySlots = (vault: Pick<Vault, 'key'>): KeySlot[] =>
  vault.key.slots.filter((s) => s.kind === 'passkey');

/**
 * The default name of a passkey added on `date`: "Passkey added 27 Nov 2026" (local date; the
 * month's name in the reader's language, the order the translation's).
 */
export const defaultPasskeyName = (date: Date = new Date()): string =>
  i18n.t('Passkey added {{day}} {{month}} {{year}}', {
    day: date.getDate(),
    month: formatDate(date, { month: 'short' }),
    year: date.getFullYear(),
  });

/** The PRF salts of a vault's passkey slots, for the unlock ceremony. */
export const unlockCredentials = (vault: Pick<Vault, 'key'>) =>
  passkeySlots(vault).map((s) => ({
    credentialId: s.credentialId!,
    salt: Uint8Array.from(atob(s.salt), (c) => c.charCodeAt(0)),
  }));

async function saveKey(vault: Vault, session: SessionId, key: Vault['key']): Promise<Vault> {
  await commitSlots(vault.id, session, { also: key });
  const { vault: changed } = await vaultsApi.replaceKey(vault.id, {
    expected_revision: vault.key_revision,
    key,
  });
  await commitSlots(vault.id, session, { only: key });
  noteRotation(vault.id, changed.key_revision);
  return changed;
}

/**
 * "Add a passkey": checks the password (so that no passkey is made for a wrong one), makes the
 * passkey with its PRF, seals a slot for it in the crypto Worker and saves the key and manifest.
 * Throws 'Invalid password' (CryptoError), PasskeyError, or the server's error.
 */
export async function addPasskey(
  vault: Vault,
  session: SessionId,
  input: { password: string; name: string; userName: string },
): Promise<Vault> {
  const client = cryptoClient();
  const id = asVaultId(vault.id);
  const current = (await vaultsApi.get(vault.id)).vault;
  if (passkeySlots(current).length >= MAX_PASSKEY_SLOTS) throw new PasskeyError(manageTexts.full());
  const probe = await client.unlockVault(id, current.key, input.password, { allowLegacy: false });
  await client.closeSession(probe);
  const salt = crypto.getRandomValues(new Uint8Array(32));
  const made = await createVaultPasskey({
    salt,
    userName: input.userName,
    exclude: passkeySlots(current).map((s) => s.credentialId!),
  });
  const key = await client.addPasskeySlot(
    id,
    current.key,
    input.password,
    { credentialId: made.credentialId, name: input.name, salt, prf: new Uint8Array(made.prf) },
    { allowLegacy: false },
  );
  made.prf.fill(0);
  return saveKey(current, session, key);
}

/** Removes one passkey slot (the password slot stays); nothing to derive. */
export async function removePasskey(
  vault: Vault,
  session: SessionId,
  slotId: string,
): Promise<Vault> {
  const current = (await vaultsApi.get(vault.id)).vault;
  const key = { ...current.key, slots: current.key.slots.filter((s) => s.id !== slotId) };
  if (key.slots.length === current.key.slots.length) return current;
  return saveKey(current, session, key);
}

export { PasskeyError, passkeyTexts };
