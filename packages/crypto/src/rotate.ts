// Key rotation (ADR 0007, "Key rotation"; vault-format.md, "Rotation"): every record of a vault
// re-encrypted from the keys of one session (the old VMK) to another's (the new VMK). File
// contents are not touched: only each FK's wrapping changes. One record that does not open fails
// the whole call with DECRYPT_FAILED, naming nothing: a rotation is all or nothing.
import { fromBase64, toBase64, type RandomBytes } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { asFileId, asFolderId, asItemId, type FileId, type FolderId } from './ids.ts';
import { rewrapFileKey, type VaultKeys } from './keys.ts';
import * as records from './records.ts';

/** One file record as the rotation reads it. */
export interface RekeyFileInput {
  id: string;
  /** The folder the file is in (its metadata AAD and name look-up); null at the vault root. */
  parentId: string | null;
  /** encFK, base64. */
  wrapped_key: string;
  /** encMeta, base64. */
  enc_meta: string;
}

/** The same file's fields under the new keys. */
export interface RekeyFileOutput {
  wrapped_key: string;
  enc_meta: string;
  name_lookup: string;
}

/** One secret record as the rotation reads it (its revision is kept). */
export interface RekeyItemInput {
  id: string;
  revision: number;
  data: string;
}

const isList = (v: unknown): boolean => Array.isArray(v);

function sameVault(from: VaultKeys, to: VaultKeys) {
  if (from.vaultId !== to.vaultId || from === to) throw new CryptoError('INVALID_INPUT');
}

/** Runs every step; any failure (bad id included) becomes DECRYPT_FAILED. */
async function allOrNothing<T>(steps: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(steps);
  const out: T[] = [];
  for (const r of settled) {
    if (r.status === 'rejected') throw new CryptoError('DECRYPT_FAILED');
    out.push(r.value);
  }
  return out;
}

/** The parent a record's name look-up is computed under (docs/vault-format.md). */
export function lookupParent(meta: records.FileMeta, parent: FolderId | null): FolderId | null {
  if (meta.thumbnailOf !== undefined) return asFolderId(meta.thumbnailOf);
  if (meta.folder !== undefined) return asFolderId(meta.folder);
  return parent;
}

/**
 * The parent and name a record's look-up is computed with: a record in the trash or an older
 * version holds no name (its own id and the empty name, which no real name is), so the name is
 * free for a new file (docs/vault-format.md "Trash", "Versions").
 */
export function lookupOf(
  meta: records.FileMeta,
  fileId: FileId,
  parent: FolderId | null,
): [FolderId | null, string] {
  if (meta.trashed !== undefined || meta.versionOf !== undefined) return [asFolderId(fileId), ''];
  return [lookupParent(meta, parent), meta.name];
}

async function rekeyFile(from: VaultKeys, to: VaultKeys, f: RekeyFileInput, random: RandomBytes) {
  const fileId = asFileId(f.id);
  const parent = f.parentId === null ? null : asFolderId(f.parentId);
  const meta = await records.decryptMeta(from, fileId, parent, f.enc_meta);
  const wrapped = await rewrapFileKey(from, to, fileId, fromBase64(f.wrapped_key), random);
  return {
    wrapped_key: toBase64(wrapped),
    enc_meta: await records.encryptMeta(to, fileId, parent, meta, random),
    // The look-up is per folder: the one named inside the metadata, else the record's parent; a
    // thumbnail's is under the file it shows (one per file); a trashed record or an older version
    // holds no name.
    name_lookup: await records.lookupName(to, ...lookupOf(meta, fileId, parent)),
  };
}

export function rekeyFiles(
  from: VaultKeys,
  to: VaultKeys,
  files: readonly RekeyFileInput[],
  random: RandomBytes,
): Promise<RekeyFileOutput[]> {
  sameVault(from, to);
  if (!isList(files)) throw new CryptoError('INVALID_INPUT');
  return allOrNothing(
    files.map((f) => Promise.resolve().then(() => rekeyFile(from, to, f, random))),
  );
}

export function rekeyItems(
  from: VaultKeys,
  to: VaultKeys,
  items: readonly RekeyItemInput[],
  random: RandomBytes,
): Promise<string[]> {
  sameVault(from, to);
  if (!isList(items)) throw new CryptoError('INVALID_INPUT');
  return allOrNothing(
    items.map((i) =>
      Promise.resolve().then(async () => {
        const id = asItemId(i.id);
        const item = await records.decryptItem(from, id, i.revision, i.data);
        return records.encryptItem(to, id, i.revision, item, random);
      }),
    ),
  );
}
