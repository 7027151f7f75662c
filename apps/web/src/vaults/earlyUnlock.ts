// What the Unlock Vault dialog starts before it knows the password is right, and what it leaves
// to the vault's first screen (issue 31, bench/RESULTS.md "Speed II": Unlock pressed → the list
// shown). While the dialog is open the crypto Worker starts and the vault's encrypted records are
// fetched; when Unlock is pressed the manifest's fetch starts (once, [Note: manifest at unlock])
// with a provider vault's segments, and the key derivation with the page's copy of the key, beside
// the read of the vault's record that checks the copy is current; as soon as the key is open, before the manifest is verified,
// the records are decrypted (files/earlyOpen.ts; secrets/earlyOpen.ts, [Note: early secrets
// opening]). Nothing of that is shown before unlockChecked succeeded: it is keyed by the
// session, and dropped when the unlock fails.
import type { QueryClient } from '@tanstack/react-query';
import { asVaultId, type SessionId } from '@sealvault/crypto';
import type { Vault } from '@sealvault/protocol';
import { cryptoClient, warmUpCrypto } from '../crypto/client.ts';
import { prefetchFileRecords } from '../files/deviceCache.ts';
import { dropOpened, openEarly } from '../files/earlyOpen.ts';
import { dropOpenedSecrets, openSecretsEarly } from '../secrets/earlyOpen.ts';
import { prefetchSecretRecords, prefetchSegmentsFor } from '../secrets/useSecrets.ts';
import { fetchManifestAnswer, type UnlockOptions } from './manifest/vaultManifest.ts';
import { vaultKeysQuery } from './useVaults.ts';

/** The dialog is open: start the Worker, fetch the vault's (encrypted) records meanwhile. */
export function prefetchForUnlock(
  qc: QueryClient,
  vault: Pick<Vault, 'id' | 'vault_type' | 'provider_type'>,
): void {
  warmUpCrypto();
  if (vault.vault_type === 'secrets') void prefetchSecretRecords(qc, vault);
  else prefetchFileRecords(vault.id);
}

/**
 * A password slot made before commitments: unlockChecked re-seals it (the vault's record
 * changes), or refuses it once a manifest exists.
 */
const resealed = (v: Vault) => v.key.slots.some((s) => s.kind === 'password' && !s.commit);

/** Unlock pressed with the password. */
export interface EarlyUnlock {
  /** unlockChecked's options, for the vault's record as the unlock read it (`current`). */
  options(current: Vault): UnlockOptions;
  /** The unlock failed: what was opened early is forgotten. */
  failed(): void;
}

/**
 * Unlock pressed: the manifest's fetch starts now, a provider vault's segments with it, and the
 * key derivation with the page's copy of the key (unlockChecked uses it only if the vault's
 * record read meanwhile holds the same key, and closes it otherwise).
 */
export function beginUnlock(vault: Vault, password: string): EarlyUnlock {
  const manifest = fetchManifestAnswer(vault.id);
  if (vault.vault_type === 'secrets') prefetchSegmentsFor(vault, manifest);
  const session = resealed(vault)
    ? undefined
    : cryptoClient().unlockVault(asVaultId(vault.id), vault.key, password, { allowLegacy: false });
  session?.catch(() => undefined); // its error is unlockChecked's to throw
  return {
    options: (current) => ({
      manifest,
      ...(session ? { derived: { key: vault.key, session } } : {}),
      onSession: (session: SessionId) => {
        // The record goes to the first list (no second read) unless the unlock rewrites it.
        const read = resealed(current) ? undefined : current;
        if (current.vault_type === 'files') openEarly(vault.id, session, read);
        else openSecretsEarly(vault.id, session, read);
      },
    }),
    failed: () => {
      dropOpened(vault.id);
      dropOpenedSecrets(vault.id);
    },
  };
}

/**
 * The vault opened with its record as read by the unlock (`current`): the page holds that record,
 * whose key is the one that opened, and no component mounting with the vault's first screen reads
 * it again. Only a re-sealed slot (a new key) is read again now; the vault list is marked stale,
 * not refetched beside the vault's first list.
 */
export function afterUnlock(qc: QueryClient, current: Vault): void {
  if (resealed(current)) {
    void qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
    return;
  }
  qc.setQueryData(vaultKeysQuery.one(current.id), current);
  void qc.invalidateQueries({ queryKey: vaultKeysQuery.all, exact: true, refetchType: 'none' });
}
