// The decrypted files of an unlocked file vault, and rename and delete. All metadata is
// decrypted in the Worker in one batch; records that do not decrypt are counted, never shown.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { asFileId, asFolderId, FOLDER_MIME, type FileMeta } from '@sealvault/crypto';
import { filesApi, type VaultFile } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';
import { storageOf } from '../storage/providers.ts';
import { vaultKeysQuery } from '../vaults/useVaults.ts';
import { describeProblems, hiddenIds } from '../vaults/manifest/problems.ts';
import { withCurrentKey } from '../vaults/manifest/keyRevision.ts';
import { checkAgainstManifest, commitFile } from '../vaults/manifest/vaultManifest.ts';
import { followMove } from '../vaults/move/follow.ts';
import { notConnectedError } from './cloudConnection.ts';
import type { FileEntry } from './model.ts';

export const filesKey = (vaultId: string) => ['files', vaultId] as const;

export interface FilesList {
  files: FileEntry[];
  unreadable: number;
  /** What does not match the vault's manifest, in the user's words; those files are not shown. */
  integrity: string[];
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** The records of the last checked list, by id: a rename's next manifest entry starts from them. */
const checkedRecords = new Map<string, VaultFile>();

async function decryptAll(vaultId: string, records: VaultFile[]): Promise<FilesList> {
  const session = sessionOf(vaultId);
  const crypto = cryptoClient();
  const [metas, problems] = await Promise.all([
    crypto.decryptMetas(
      session,
      records.map((r) => ({ id: asFileId(r.id), parentId: null, encMeta: r.enc_meta })),
    ),
    checkAgainstManifest(vaultId, session, { files: records }),
  ]);
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
  return { files, unreadable, integrity: describeProblems(problems, (id) => names.get(id)) };
}

export function useFiles(vaultId: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: filesKey(vaultId),
    queryFn: async () => {
      await followMove(qc, vaultId);
      return decryptAll(vaultId, (await filesApi.list(vaultId)).files);
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

export function useFileMutations(vaultId: string) {
  const reload = useReloadFiles(vaultId);

  /**
   * Writes a file's or folder's metadata anew: a rename, or a move to another folder (null: the
   * root). One record, whatever lies below a folder; the look-up is per folder.
   */
  const rewrite = async (file: FileEntry, name: string, folder: string | null) => {
    const session = sessionOf(vaultId);
    const crypto = cryptoClient();
    const id = asFileId(file.id);
    const meta: FileMeta = {
      name,
      mime: file.mime,
      size: file.size,
      modified: file.modified,
      ...(file.sha256 ? { sha256: file.sha256 } : {}),
      ...(folder ? { folder } : {}),
    };
    const [enc_meta, name_lookup] = await Promise.all([
      crypto.encryptMeta(session, id, null, meta),
      crypto.lookupName(session, folder ? asFolderId(folder) : null, name),
    ]);
    // [Note: key revision of a write] in vaults/manifest/keyRevision.ts.
    const renamed = await withCurrentKey(vaultId, (key_revision) =>
      filesApi.rename(vaultId, file.id, { enc_meta, name_lookup, key_revision }),
    );
    // The next manifest entry: the record as checked, with what this write sent.
    const before = checkedRecords.get(file.id) ?? renamed.file;
    await commitFile(vaultId, session, file.id, { ...before, enc_meta, name_lookup });
    return renamed;
  };

  const rename = useMutation({
    mutationFn: ({ file, name }: { file: FileEntry; name: string }) =>
      rewrite(file, name, file.folder),
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
      for (const e of entries) await rewrite(e, e.name, folder);
    },
    onSettled: reload,
  });

  const remove = useMutation({
    // The record first (the file is gone for the user), then the provider's copy. Our server
    // removes its own copy with the record; another provider's is removed from here, so a cloud
    // account that is not connected refuses the delete before the record goes (its copy would
    // be left behind).
    mutationFn: async (file: FileEntry) => {
      const session = sessionOf(vaultId);
      const storage = storageOf(vaultId);
      const unconnected = notConnectedError(storage.type);
      if (unconnected) throw unconnected;
      for (const gone of file.thumb ? [file, file.thumb] : [file]) {
        await filesApi.remove(vaultId, gone.id);
        checkedRecords.delete(gone.id);
        await commitFile(vaultId, session, gone.id, null);
        if (storage.type !== 'server') await storage.delete(vaultId, gone.ref);
      }
    },
    onSettled: reload,
  });

  return { rename, move, remove };
}
