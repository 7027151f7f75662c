// A file vault's records opened while the unlock is still checking the vault (issue 31, bench/
// RESULTS.md "Speed II"): the records fetched while the password was typed
// (deviceCache.prefetchFileRecords) are decrypted, or taken from this device's cache, as soon as
// the key is open (unlockChecked's onSession), beside the manifest's verification, and the
// first listing takes the result (`takeOpened`) instead of starting from nothing. Nothing from
// it is shown before the unlock succeeded and the listing checked the records against the
// verified manifest (useFiles.ts): it is keyed by the session, which a failed unlock closes.
// The vault's record the unlock read goes with it: the first list neither follows a move nor
// checks the manifest with a second read of it.
import { asFileId, type FileMeta, type SessionId } from '@sealvault/crypto';
import type { Vault, VaultFile } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { knownFileDigests, recordSig } from '../vaults/manifest/vaultManifest.ts';
import { loadLearnt, takeFileRecords, type Learnt } from './deviceCache.ts';

/** The records with what they hold: each one's metadata, or null where it did not decrypt. */
export interface Opened {
  records: VaultFile[];
  learnt: ReadonlyMap<string, Learnt>;
  metas: (FileMeta | null)[];
  /** How many records this device had not learnt before (decrypted now). */
  fresh: number;
}

/**
 * Opens records: what this device learnt before from these exact records is not decrypted or
 * digested again; the rest is decrypted in the Worker in one batch.
 */
export async function openRecords(
  session: SessionId,
  records: VaultFile[],
  learnt: ReadonlyMap<string, Learnt>,
): Promise<Opened> {
  const known = records.map((r) => {
    const l = learnt.get(r.id);
    return l && l.sig === recordSig(r) ? l : undefined;
  });
  knownFileDigests(records.flatMap((r, i) => (known[i] ? [{ id: r.id, ...known[i] }] : [])));
  const missing = records.filter((_, i) => !known[i]);
  const opened =
    missing.length === 0
      ? []
      : await cryptoClient().decryptMetas(
          session,
          missing.map((r) => ({ id: asFileId(r.id), parentId: null, encMeta: r.enc_meta })),
        );
  let next = 0;
  const metas = known.map((k) => k?.meta ?? opened[next++] ?? null);
  return { records, learnt, metas, fresh: missing.length };
}

/** Records on their way, and what they hold once opened. */
export interface Opening {
  records: Promise<VaultFile[]>;
  opened: Promise<Opened>;
  /** The vault's record as the unlock read it, so the first list does not read it again. */
  vault?: Vault;
}

const openings = new Map<string, { session: SessionId; opening: Opening }>();

/**
 * Starts opening the prefetched records of a vault whose key just opened under `session`; `vault`
 * is its record as the unlock read it (undefined where the unlock rewrites it).
 */
export function openEarly(vaultId: string, session: SessionId, vault?: Vault): void {
  const records = takeFileRecords(vaultId);
  if (!records) return;
  const opened = Promise.all([records, loadLearnt(vaultId, session)]).then(([list, learnt]) =>
    openRecords(session, list, learnt),
  );
  opened.catch(() => undefined); // taken by the first listing, or dropped
  openings.set(vaultId, { session, opening: { records, opened, ...(vault ? { vault } : {}) } });
}

/** What openEarly started for this session, once; undefined for any other session. */
export function takeOpened(vaultId: string, session: SessionId): Opening | undefined {
  const o = openings.get(vaultId);
  openings.delete(vaultId);
  return o?.session === session ? o.opening : undefined;
}

/** Forgets what openEarly started (the unlock failed). */
export const dropOpened = (vaultId: string) => void openings.delete(vaultId);
