// The vault-key operations the screens need, over the crypto client (packages/crypto). The
// password goes only to the crypto Worker; what comes back is the wrapped key slots for the
// server, or an opaque handle of keys the Worker holds, and nothing that can open them. Which
// vaults are open, and their handles, is kept in one place: vaults/vaultSessions.ts.
import { asVaultId, type SessionId, type VaultKey as CryptoVaultKey } from '@sealvault/crypto';
import type { VaultKey } from '@sealvault/protocol';
import { cryptoClient } from './client.ts';

export interface VaultKeyService {
  /** A new vault master key and its password slot, for a vault with this id. */
  create(vaultId: string, password: string): Promise<VaultKey>;
  /** Opens the slot and keeps the keys in the Worker; rejects with 'Invalid password'. */
  unlock(vaultId: string, key: VaultKey, password: string): Promise<SessionId>;
  /** Makes the Worker forget the vault's keys. */
  lock(vaultId: string): void;
  /** A new password slot for the same master key: no data is re-encrypted. */
  changePassword(vaultId: string, key: VaultKey, current: string, next: string): Promise<VaultKey>;
}

// The server's copy of the slots is untrusted input: the crypto package checks the KDF
// parameters and the slot's authenticity itself, so the protocol shape is handed over as is.
const asCryptoKey = (key: VaultKey): CryptoVaultKey => key;
const asProtocolKey = (key: CryptoVaultKey): VaultKey => key;

export const vaultKeys: VaultKeyService = {
  async create(vaultId, password) {
    const { key } = await cryptoClient().createVault(asVaultId(vaultId), password);
    // A new vault starts locked, like every vault: it is opened with its password.
    await cryptoClient().lockVault(asVaultId(vaultId));
    return asProtocolKey(key);
  },
  unlock: (vaultId, key, password) =>
    cryptoClient().unlockVault(asVaultId(vaultId), asCryptoKey(key), password),
  lock(vaultId) {
    void cryptoClient().lockVault(asVaultId(vaultId));
  },
  async changePassword(vaultId, key, current, next) {
    return asProtocolKey(
      await cryptoClient().changePassword(asVaultId(vaultId), asCryptoKey(key), current, next),
    );
  },
};
