// Secret items over the crypto client (vault-format.md §3): each secret's fields are encrypted
// in the Worker with K_item, bound to the vault, the item id and its revision.
import { asItemId } from '@sealvault/crypto';
import type { SecretFields } from '../secrets/model.ts';
import { cryptoClient } from './client.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';

export interface EncryptedItem {
  id: string;
  revision: number;
  data: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export const itemCrypto = {
  encrypt(
    vaultId: string,
    itemId: string,
    revision: number,
    fields: SecretFields,
  ): Promise<string> {
    return cryptoClient().encryptItem(sessionOf(vaultId), asItemId(itemId), revision, {
      ...fields,
    });
  },

  /** Decrypts many in one Worker round trip; a record that does not open is null, never thrown. */
  async decryptMany(vaultId: string, items: EncryptedItem[]): Promise<(SecretFields | null)[]> {
    const results = await cryptoClient().decryptItems(
      sessionOf(vaultId),
      items.map((i) => ({ id: asItemId(i.id), revision: i.revision, data: i.data })),
    );
    return results.map((item) =>
      item
        ? {
            title: text(item.title),
            username: text(item.username),
            password: text(item.password),
            url: text(item.url),
            notes: text(item.notes),
          }
        : null,
    );
  },
};
