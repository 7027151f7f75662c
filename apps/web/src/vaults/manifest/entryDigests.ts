// The manifest's entry digests of the records a list shows (vault-format.md "Manifest"): a file's
// and an item's depend only on their records, so each is computed once per record for the life
// of the page, and a file's may come from what this device learnt before (files/deviceCache.ts).
// Checking a list then digests only the records that changed (issue 31, opening a vault).
import { fileEntryDigest, itemEntryDigest, type FileEntry } from '@sealvault/crypto';
import type { SecretRecord, VaultFile } from '@sealvault/protocol';

// A record too malformed to digest cannot match any entry: it is reported as changed.
const MALFORMED = 'malformed';

/** Every byte of a file record its entry digest covers (with its id): equal, equal digests. */
export const recordSig = (r: FileEntry) =>
  `${r.wrapped_key}.${r.enc_meta}.${r.name_lookup}.${r.checksum}.${r.ciphertext_size}`;

// A file's entry digest, like an item's below, depends only on its record: kept for the life of
// the page by id and record, and seeded from what this device learnt before
// (files/deviceCache.ts), so opening a vault digests only the records that changed.
const fileDigests = new Map<string, { sig: string; digest: Promise<string> }>();
const FILE_DIGESTS_CAP = 200_000;

export function fileDigest(f: FileEntry): Promise<string> {
  const sig = recordSig(f);
  const known = fileDigests.get(f.id);
  if (known?.sig === sig) return known.digest;
  if (fileDigests.size >= FILE_DIGESTS_CAP) fileDigests.clear();
  const digest = fileEntryDigest(f).catch(() => MALFORMED);
  fileDigests.set(f.id, { sig, digest });
  return digest;
}

/** Digests learnt earlier for these exact records (files/deviceCache.ts). */
export function knownFileDigests(known: Iterable<{ id: string; sig: string; digest: string }>) {
  for (const k of known) fileDigests.set(k.id, { sig: k.sig, digest: Promise.resolve(k.digest) });
}

// An item's entry digest depends only on its id, revision and ciphertext, none of them secret, and
// every read of a list checks every item: the digests are kept for the life of the page, so a
// reload after one change hashes that change only. Bounded: cleared when it grows past the cap.
const itemDigests = new Map<string, { data: string; digest: Promise<string> }>();
const ITEM_DIGESTS_CAP = 100_000;

export function secretDigest(r: Pick<SecretRecord, 'id' | 'revision' | 'data'>): Promise<string> {
  const key = `${r.id}:${r.revision}`;
  const known = itemDigests.get(key);
  if (known?.data === r.data) return known.digest;
  if (itemDigests.size >= ITEM_DIGESTS_CAP) itemDigests.clear();
  const digest = itemEntryDigest(r).catch(() => MALFORMED);
  itemDigests.set(key, { data: r.data, digest });
  return digest;
}

export const digestFiles = (files: VaultFile[]) =>
  Promise.all(files.map(async (f) => ({ id: f.id, digest: await fileDigest(f) })));
export const digestSecrets = (records: SecretRecord[]) =>
  Promise.all(
    records.map(async (r) => ({ id: r.id, revision: r.revision, digest: await secretDigest(r) })),
  );
