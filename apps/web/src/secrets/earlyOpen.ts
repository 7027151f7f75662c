// A secrets vault's items opened while the unlock is still checking the vault (issue 31, bench/
// RESULTS.md "Speed II"), as files/earlyOpen.ts does for a file vault.
//
// [Note: early secrets opening] The encrypted items read before the key (a server vault's records
// fetched while the password is typed, or the items of a provider vault's segments as the
// unlock's manifest, not verified yet, names them) are decrypted as soon as the key is open
// (unlockChecked's onSession), beside the manifest's verification. The first list after the
// unlock takes them (`takeOpenedSecrets`) and reuses an early result only for a record it lists
// itself, after its own manifest check, with the same id, revision and ciphertext: what the
// server or the provider sent early cannot add, change or bring back an item, it only saves
// the Worker decrypting the same bytes again. Keyed by the session, which a failed unlock
// closes (and `dropOpenedSecrets` forgets): nothing opened is shown before the unlock succeeded.
// The vault's record the unlock read goes with it, so the first list does not read it again.
import { asItemId, type SessionId } from '@sealvault/crypto';
import type { Vault } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { secretDataFromStored } from './itemFormat.ts';
import type { SecretData } from './model.ts';

/** An encrypted item as the Worker opens it: bound to its id and revision. */
export interface EarlyRecord {
  id: string;
  revision: number;
  data: string;
}

/** What an item decrypted to, by id, with the revision and ciphertext it was decrypted from. */
export type OpenedItems = ReadonlyMap<
  string,
  { revision: number; data: string; fields: SecretData }
>;

/** What the unlock hands to the first list. */
export interface SecretsOpening {
  /** The vault's record as the unlock read it (its key is the one that opened). */
  vault: Vault | undefined;
  /** The items read before the key, decrypted; empty when none were read. */
  items: Promise<OpenedItems>;
}

// Items read before the key, by vault: ciphertext only, so holding them reveals nothing.
const pending = new Map<string, Promise<readonly EarlyRecord[]>>();
const openings = new Map<string, { session: SessionId; opening: SecretsOpening }>();

/** Keeps the items being read for a vault before its key is open (the latest read wins). */
export function noteEarlyRecords(vaultId: string, records: Promise<readonly EarlyRecord[]>): void {
  records.catch(() => undefined); // a failed read only means nothing is opened early
  pending.set(vaultId, records);
}

/**
 * How many items go to the Worker in one message. The batches are sent one after the other, so
 * the unlock's manifest verification, sent meanwhile, waits for one batch, not for them all.
 */
const BATCH = 1000;

/** Decrypts records in the Worker under `session`; a record that does not open is left out. */
export async function openItems(
  session: SessionId,
  records: readonly EarlyRecord[],
): Promise<OpenedItems> {
  const items = new Map<string, { revision: number; data: string; fields: SecretData }>();
  for (let i = 0; i < records.length; i += BATCH) {
    const batch = records.slice(i, i + BATCH);
    const opened = await cryptoClient().decryptItems(
      session,
      batch.map((r) => ({ id: asItemId(r.id), revision: r.revision, data: r.data })),
    );
    batch.forEach((r, j) => {
      const item = opened[j];
      if (item)
        items.set(r.id, { revision: r.revision, data: r.data, fields: secretDataFromStored(item) });
    });
  }
  return items;
}

/**
 * Starts opening what was read of a vault before its key opened under `session`; `vault` is the
 * record the unlock used, handed on only when the unlock leaves it as it is.
 */
export function openSecretsEarly(
  vaultId: string,
  session: SessionId,
  vault: Vault | undefined,
): void {
  const records = pending.get(vaultId);
  pending.delete(vaultId);
  const items = records
    ? records.then((r) => openItems(session, r))
    : Promise.resolve<OpenedItems>(new Map());
  items.catch(() => undefined); // taken by the first list, or dropped
  openings.set(vaultId, { session, opening: { vault, items } });
}

/** What openSecretsEarly started for this session, once; undefined for any other session. */
export function takeOpenedSecrets(vaultId: string, session: SessionId): SecretsOpening | undefined {
  const o = openings.get(vaultId);
  openings.delete(vaultId);
  return o?.session === session ? o.opening : undefined;
}

/** Forgets what was opened early for a vault (the unlock failed). */
export function dropOpenedSecrets(vaultId: string): void {
  openings.delete(vaultId);
}
