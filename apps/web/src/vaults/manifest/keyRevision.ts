// [Note: key revision of a write] (packages/protocol/src/vaults.ts) in the app: the key revision
// each open vault was unlocked at, named by every record write, and what a write does when the
// server answers that the vault's keys changed since (409 `stale_key`).
//
// The key revision moves on with any key change. A password change on another device keeps the
// vault master key: this device's records are still good, so it takes the new revision and sends
// the same write again. A rotation retires the master key: nothing made under it may be stored,
// so the vault locks with the reason 'rekeyed' and its page is kept ([Note: kept work] in
// VaultFrame.tsx): after an unlock with the current password the half-typed form is still there,
// with the refusal's message, and saving again encrypts under the new keys. Which of the two
// happened is told by the manifest: one signed under this session's keys verifies only if the
// master key is the same (ADR 0007).
import { ApiError, STALE_KEY_MESSAGE, vaultsApi } from '@sealvault/protocol';
import { cryptoClient } from '../../crypto/client.ts';
import { appVaultSessions, sessionOf } from '../sessionContext.tsx';

const unlockedAt = new Map<string, number>();

/** After an unlock, or after this device changed the vault's key: the revision it holds now. */
export const noteKeyRevision = (vaultId: string, keyRevision: number) =>
  void unlockedAt.set(vaultId, keyRevision);

/** The revision the vault was unlocked at, if this page unlocked it. */
export const heldKeyRevision = (vaultId: string): number | undefined => unlockedAt.get(vaultId);

/**
 * The key revision to name in a write. A vault opened without unlockChecked (some tests) takes
 * the server's current one, as if it had just been unlocked.
 */
export async function keyRevisionOf(vaultId: string): Promise<number> {
  const held = unlockedAt.get(vaultId);
  if (held !== undefined) return held;
  const { vault } = await vaultsApi.get(vaultId);
  unlockedAt.set(vaultId, vault.key_revision);
  return vault.key_revision;
}

/** Whether `err` is the server's refusal of a write under a retired key revision. */
export function isStaleKey(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if (e instanceof ApiError && e.code === 'stale_key') return true;
    if (e.message === STALE_KEY_MESSAGE) return true;
  }
  return false;
}

/** What a stale write found out: the same master key under a new revision, or a retired one. */
async function resolveStale(vaultId: string): Promise<'same' | 'retired'> {
  const [{ vault }, { manifest }] = await Promise.all([
    vaultsApi.get(vaultId),
    vaultsApi.manifest(vaultId),
  ]);
  const session = sessionOf(vaultId);
  if (manifest && (await cryptoClient().verifyManifest(session, manifest)).ok) {
    unlockedAt.set(vaultId, vault.key_revision);
    return 'same';
  }
  return 'retired';
}

/** Hooks for the lock a retired key brings (the app's vault sessions; a test's own). */
export const staleKeyHooks = {
  lock: (vaultId: string) => appVaultSessions.end(vaultId, 'rekeyed'),
};

/**
 * Runs `write` with the key revision this device holds. On `stale_key`: after a password change
 * elsewhere, runs it once more under the new revision; after a rotation, locks the vault (its page
 * is kept) and rethrows the refusal, whose message says to unlock and try again.
 */
export async function withCurrentKey<T>(
  vaultId: string,
  write: (keyRevision: number) => Promise<T>,
): Promise<T> {
  try {
    return await write(await keyRevisionOf(vaultId));
  } catch (err) {
    if (!isStaleKey(err)) throw err;
    if ((await resolveStale(vaultId)) === 'same') return write(await keyRevisionOf(vaultId));
    unlockedAt.delete(vaultId);
    staleKeyHooks.lock(vaultId);
    throw err;
  }
}
