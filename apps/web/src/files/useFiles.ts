// The decrypted files of an unlocked file vault, and the record writes: rename and move (one
// record each), the trash (trashFiles, restoreItems), older versions (versions.ts) and deleting
// for good (deleteRecords). All metadata is decrypted in the Worker in one batch (earlyOpen.ts,
// started as soon as the unlock opened the key); records that do not decrypt are counted, never
// shown.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { asFileId, FOLDER_MIME, lookupOf, type FileMeta } from '@sealvault/crypto';
import { filesApi, type Vault, type VaultFile } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';
import { storageOf } from '../storage/providers.ts';
import { vaultKeysQuery } from '../vaults/useVaults.ts';
import { describeProblems, hiddenIds } from '../vaults/manifest/problems.ts';
import { withCurrentKey } from '../vaults/manifest/keyRevision.ts';
import {
  checkAgainstManifest,
  commitFile,
  fileDigest,
  recordSig,
} from '../vaults/manifest/vaultManifest.ts';
import { loadLearnt, saveLearnt, takeFileRecords, type Learnt } from './deviceCache.ts';
import { openRecords, takeOpened, type Opening } from './earlyOpen.ts';
import { followMove } from '../vaults/move/follow.ts';
import { notConnectedError } from './cloudConnection.ts';
import { metaOf, type FileEntry } from './model.ts';
import { followers, viewOf, type VaultView } from './trash.ts';

export const filesKey = (vaultId: string) => ['files', vaultId] as const;

export interface FilesList extends VaultView {
  /** Every readable record but thumbnails: live, in the trash and older versions. */
  files: FileEntry[];
  unreadable: number;
  /** What does not match the vault's manifest, in the user's words; those files are not shown. */
  integrity: string[];
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** How long after a list is read the device cache is written (issue 31). */
const REMEMBER_AFTER_MS = 300;

/** The records of the last checked list, by id: a rename's next manifest entry starts from them. */
const checkedRecords = new Map<string, VaultFile>();

/** `vault`: the vault's record as just read (follow.ts), which the manifest check then uses. */
async function decryptAll(vaultId: string, opening: Opening, vault?: Vault): Promise<FilesList> {
  const session = sessionOf(vaultId);
  // The manifest check (the entry digests, on this thread) starts with the records, beside
  // their decryption in the Worker.
  const [{ records, learnt, metas, fresh }, problems] = await Promise.all([
    opening.opened,
    opening.records.then((records) =>
      checkAgainstManifest(vaultId, session, { files: records }, undefined, vault),
    ),
  ]);
  if (fresh > 0 || learnt.size !== records.length) {
    // After the list is on screen: writing the cache is megabytes of JSON on this thread.
    setTimeout(() => void remember(vaultId, records, metas), REMEMBER_AFTER_MS);
  }
  const hidden = hiddenIds(problems);
  const names = new Map<string, string>();
  const files: FileEntry[] = [];
  // Thumbnails are records of their own, shown on the file they name, never listed.
  const thumbs = new Map<string, FileEntry>();
  let unreadable = 0;
  records.forEach((r, i) => {
    const m = metas[i];
    if (m) names.set(r.id, m.name);
    if (hidden.has(r.id)) return;
    if (!m) {
      unreadable += 1;
      return;
    }
    checkedRecords.set(r.id, r);
    const entry: FileEntry = {
      id: r.id,
      name: m.name,
      mime: m.mime,
      size: m.size,
      createdAt: r.created_at,
      wrappedKey: r.wrapped_key,
      ciphertextSize: r.ciphertext_size,
      ref: r.storage_ref ?? r.id,
      modified: m.modified,
      ...(m.sha256 ? { sha256: m.sha256 } : {}),
      folder: m.folder ?? null,
      isFolder: m.mime === FOLDER_MIME,
      trashed: m.trashed ?? null,
      trashedFrom: m.trashedFrom ?? [],
      versionOf: m.versionOf ?? null,
      server: { trashed: r.trashed_at !== null, purged: r.purged_at !== null },
    };
    if (m.thumbnailOf === undefined) files.push(entry);
    else if (!thumbs.has(m.thumbnailOf) || thumbs.get(m.thumbnailOf)!.createdAt < r.created_at) {
      thumbs.set(m.thumbnailOf, entry);
    }
  });
  for (const f of files) {
    const thumb = thumbs.get(f.id);
    if (thumb) f.thumb = thumb;
  }
  // Sorted by what the vault's own encrypted data says, never by the server's order or dates,
  // which it could change at will (ADR 0007).
  files.sort((a, b) => byName.compare(a.name, b.name) || (a.id < b.id ? -1 : 1));
  return {
    files,
    ...viewOf(files),
    unreadable,
    integrity: describeProblems(problems, (id) => names.get(id)),
  };
}

/** Keeps on this device what was decrypted and digested (files/deviceCache.ts). */
async function remember(vaultId: string, records: VaultFile[], metas: (FileMeta | null)[]) {
  try {
    const learnt = new Map<string, Learnt>();
    await Promise.all(
      records.map(async (r, i) => {
        const meta = metas[i];
        if (meta) learnt.set(r.id, { sig: recordSig(r), meta, digest: await fileDigest(r) });
      }),
    );
    await saveLearnt(vaultId, sessionOf(vaultId), learnt);
  } catch {
    // Locked meanwhile: the next unlock learns it again.
  }
}

export function useFiles(vaultId: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: filesKey(vaultId),
    queryFn: async () => {
      const session = sessionOf(vaultId);
      // Opened while the unlock checked the vault (earlyOpen.ts), with the vault's record it
      // read, when this is the first listing after the unlock.
      const opened = takeOpened(vaultId, session);
      const vault = await followMove(qc, vaultId, opened?.vault);
      const fetchRecords = () => filesApi.list(vaultId).then((r) => r.files);
      const open = (records: Promise<VaultFile[]>): Opening => ({
        records,
        opened: Promise.all([records, loadLearnt(vaultId, session)]).then(([r, l]) =>
          openRecords(session, r, l),
        ),
      });
      // Or fetched while the password was typed.
      const early = opened ? undefined : takeFileRecords(vaultId);
      const list = await decryptAll(vaultId, opened ?? open(early ?? fetchRecords()), vault);
      // Records fetched before the unlock may predate a change another device made meanwhile:
      // what looks wrong is checked again against the records as they are now.
      return (opened || early) && list.integrity.length > 0
        ? decryptAll(vaultId, open(fetchRecords()))
        : list;
    },
  });
}

export function useReloadFiles(vaultId: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: filesKey(vaultId) }),
      qc.invalidateQueries({ queryKey: ['vaults'] }),
      qc.invalidateQueries({ queryKey: vaultKeysQuery.limits }), // the storage used
    ]);
}

/**
 * Writes a record's metadata anew: its current metadata with `changes` (a key set to undefined is
 * dropped), and the look-up that goes with it (per folder; none in the trash or for an older
 * version). One record, whatever lies below a folder. Answers the record as the server has it.
 */
export async function rewriteMeta(
  vaultId: string,
  file: FileEntry,
  changes: Partial<FileMeta>,
): Promise<VaultFile> {
  const session = sessionOf(vaultId);
  const crypto = cryptoClient();
  const id = asFileId(file.id);
  const meta = metaOf(file, changes);
  const [parent, name] = lookupOf(meta, id, null);
  const [enc_meta, name_lookup] = await Promise.all([
    crypto.encryptMeta(session, id, null, meta),
    crypto.lookupName(session, parent, name),
  ]);
  // [Note: key revision of a write] in vaults/manifest/keyRevision.ts.
  const renamed = await withCurrentKey(vaultId, (key_revision) =>
    filesApi.rename(vaultId, file.id, { enc_meta, name_lookup, key_revision }),
  );
  // The next manifest entry: the record as checked, with what this write sent.
  const before = checkedRecords.get(file.id) ?? renamed.file;
  const after = { ...before, enc_meta, name_lookup };
  checkedRecords.set(file.id, after);
  await commitFile(vaultId, session, file.id, after);
  return renamed.file;
}

/**
 * Deletes records for good, in the order given: the record (the file is gone for the user), its
 * manifest entry, then the provider's copy. Our server removes its own copy with the record;
 * another provider's is removed from here, so a cloud account that is not connected refuses the
 * delete before any record goes (its copy would be left behind).
 */
export async function deleteRecords(vaultId: string, records: readonly FileEntry[]) {
  const session = sessionOf(vaultId);
  const storage = storageOf(vaultId);
  const unconnected = notConnectedError(storage.type);
  if (unconnected) throw unconnected;
  for (const gone of records) {
    await filesApi.remove(vaultId, gone.id);
    checkedRecords.delete(gone.id);
    await commitFile(vaultId, session, gone.id, null);
    if (storage.type !== 'server') await storage.delete(vaultId, gone.ref);
  }
}

/** Sets the server's trash flag on records, in requests of at most 1,000. */
export async function flagTrashed(vaultId: string, ids: readonly string[], trashed: boolean) {
  for (let i = 0; i < ids.length; i += 1000) {
    await filesApi.trash(vaultId, { ids: ids.slice(i, i + 1000), trashed });
  }
}

export function useFileMutations(vaultId: string) {
  const reload = useReloadFiles(vaultId);

  const rename = useMutation({
    mutationFn: ({ file, name }: { file: FileEntry; name: string }) =>
      rewriteMeta(vaultId, file, { name }),
    onSettled: reload,
  });

  /** Moves files and folders into `folder` (null: the root), one record each, in order. */
  const move = useMutation({
    mutationFn: async ({
      entries,
      folder,
    }: {
      entries: readonly FileEntry[];
      folder: string | null;
    }) => {
      for (const e of entries) await rewriteMeta(vaultId, e, { folder: folder ?? undefined });
    },
    onSettled: reload,
  });

  /** Deletes a file for good, with its older versions and thumbnails. */
  const remove = useMutation({
    mutationFn: (file: FileEntry) => deleteRecords(vaultId, [...followers(file), file]),
    onSettled: reload,
  });

  return { rename, move, remove };
}
