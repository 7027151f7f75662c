// Secret items over the crypto client (vault-format.md §3): each secret's fields are encrypted
// in the Worker with K_item, bound to the vault, the item id and its revision.
import type { SecretFields } from '../secrets/model.ts';

export interface EncryptedItem {
  id: string;
  revision: number;
  data: string;
}

export interface ItemCrypto {
  encrypt(vaultId: string, itemId: string, revision: number, fields: SecretFields): Promise<string>;
  /** Decrypts many at once (one Worker round trip); a record that fails to open is reported, not thrown. */
  decryptMany(vaultId: string, items: EncryptedItem[]): Promise<(SecretFields | null)[]>;
}

export const itemCrypto: ItemCrypto = {
  encrypt: () => Promise.reject(new Error('crypto client not wired')),
  decryptMany: () => Promise.reject(new Error('crypto client not wired')),
};
