// The vault-key operations the screens need, over the crypto client (packages/crypto). The
// password goes only to the crypto Worker; what comes back is the wrapped key slots for the
// server and nothing that can open them. The Worker's session handle of each unlocked vault is
// kept here; the screens only ever hold vault ids.
import { asVaultId, type SessionId, type VaultKey as CryptoVaultKey } from '@sealvault/crypto';
import { messages, type VaultKey } from '@sealvault/protocol';
import { cryptoClient } from './client.ts';

export interface VaultKeyService {
  /** A new vault master key and its password slot, for a vault with this id. */
  create(vaultId: string, password: string): Promise<VaultKey>;
  /** Opens the slot and keeps the keys in the Worker; rejects with 'Invalid password'. */
  unlock(vaultId: string, key: VaultKey, password: string): Promise<void>;
  /** Makes the Worker forget the vault's keys. */
  lock(vaultId: string): void;
  /** A new password slot for the same master key: no data is re-encrypted. */
  changePassword(vaultId: string, key: VaultKey, current: string, next: string): Promise<VaultKey>;
}

// The server's copy of the slots is untrusted input: the crypto package checks the KDF
// parameters and the slot's authenticity itself, so the protocol shape is handed over as is.
const asCryptoKey = (key: VaultKey): CryptoVaultKey => key;
const asProtocolKey = (key: CryptoVaultKey): VaultKey => key;

const sessions = new Map<string, SessionId>();

/** The Worker session of an unlocked vault; throws 'Vault is not unlocked' otherwise. */
export function sessionOf(vaultId: string): SessionId {
  const s = sessions.get(vaultId);
  if (!s) throw new Error(messages.vaults.notUnlocked);
  return s;
}

export const vaultKeys: VaultKeyService = {
  async create(vaultId, password) {
    const { key } = await cryptoClient().createVault(asVaultId(vaultId), password);
    // A new vault starts locked, like every vault: it is opened with its password.
    await cryptoClient().lockVault(asVaultId(vaultId));
    return asProtocolKey(key);
  },
  async unlock(vaultId, key, password) {
    sessions.set(
      vaultId,
      await cryptoClient().unlockVault(asVaultId(vaultId), asCryptoKey(key), password),
    );
  },
  lock(vaultId) {
    sessions.delete(vaultId);
    void cryptoClient().lockVault(asVaultId(vaultId));
  },
  async changePassword(vaultId, key, current, next) {
    return asProtocolKey(
      await cryptoClient().changePassword(asVaultId(vaultId), asCryptoKey(key), current, next),
    );
  },
};
