// The vault-key operations the screens need, over the crypto client (packages/crypto). The
// password goes only to the crypto Worker; what comes back is the wrapped key slots for the
// server and nothing that can open them.
import type { VaultKey } from '@sealvault/protocol';

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

export const vaultKeys: VaultKeyService = {
  create: () => Promise.reject(new Error('crypto client not wired')),
  unlock: () => Promise.reject(new Error('crypto client not wired')),
  lock: () => undefined,
  changePassword: () => Promise.reject(new Error('crypto client not wired')),
};
