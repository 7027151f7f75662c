// Secret items over the crypto client (vault-format.md §3): each secret's fields are encrypted
// in the Worker with K_item, bound to the vault, the item id and its revision.
import { asItemId } from '@sealvault/crypto';
import type { SecretData } from '../secrets/model.ts';
import { secretDataFromStored } from '../secrets/itemFormat.ts';
import { cryptoClient } from './client.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';

export interface EncryptedItem {
  id: string;
  revision: number;
  data: string;
}

export const itemCrypto = {
  encrypt(vaultId: string, itemId: string, revision: number, fields: SecretData): Promise<string> {
    return cryptoClient().encryptItem(sessionOf(vaultId), asItemId(itemId), revision, {
      ...fields,
    });
  },

  /**
   * Decrypts many in one Worker round trip; a record that does not open is null, never thrown.
   * The whole stored JSON is kept (itemFormat.ts): the type, further URLs, TOTP, custom fields and
   * the per-type fields, an old item mapped as the spec reads it.
   */
  async decryptMany(vaultId: string, items: EncryptedItem[]): Promise<(SecretData | null)[]> {
    const results = await cryptoClient().decryptItems(
      sessionOf(vaultId),
      items.map((i) => ({ id: asItemId(i.id), revision: i.revision, data: i.data })),
    );
    return results.map((item) => (item ? secretDataFromStored(item) : null));
  },
};
