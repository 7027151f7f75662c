// The file browser of an unlocked file vault (docs/product.md §2 "File browser"): the file count, the
// list/grid toggle, 'New folder' and 'Upload Files' (FileBrowserHeader.tsx); the folder path,
// search, sort and the selection with its bulk download (one ZIP), move and delete, and the list or
// grid of decrypted names, folders first (FolderListing.tsx, useFolderView.ts); drag-and-drop of
// files or folders from the desktop with the 'Drop files to upload' overlay (useFileDrop.ts);
// inline rename, download (with its progress), delete (to the trash, with Undo) and the previewer;
// a file's older versions (VersionsDialog.tsx); the trash (TrashView.tsx, `?view=trash`). A vault
// whose cloud account is no longer connected shows the spec's prompt to connect it again, right
// here (CloudConnectionPrompt.tsx). This module holds the browser's state and its dialogs.
import { Loader2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { messages, userMessage, type Vault } from '@sealvault/protocol';
import { useLimits } from '../vaults/useVaults.ts';
import { DownloadsPanel } from './DownloadsPanel.tsx';
import { registerVaultStorage, storageOf } from '../storage/providers.ts';
import { downloadFile } from './transfer/download.ts';
import { CloudConnectionPrompt } from './CloudConnectionPrompt.tsx';
import { CloudFolderNotice } from './CloudFolderNotice.tsx';
import { LocalStorageNotice } from './LocalStorageNotice.tsx';
import { FileBrowserHeader, type ViewMode } from './FileBrowserHeader.tsx';
import type { FileActions } from './FileItems.tsx';
import { addToSelection, type FileEntry, type Selected } from './model.ts';
import { buildTree, canMoveInto, zipEntriesOf } from './folders.ts';
import { folderTexts, MoveDialog, NewFolderDialog } from './FolderDialogs.tsx';
import { FolderListing } from './FolderListing.tsx';
import { folderMaker, type Picked } from './folderUpload.ts';
import { createFolder } from './transfer/upload.ts';
import { downloadZip } from './transfer/zip.ts';
import { useFileDrop } from './useFileDrop.ts';
import { useFolderView } from './useFolderView.ts';
import { thumbnailLater, wantsThumbnail } from './thumbnails.ts';
import { Previewer } from './Previewer.tsx';
import { UploadDialog } from './UploadDialog.tsx';
import { useLostConnection } from './useCloudConnection.ts';
import { useFileMutations, useFiles, useReloadFiles } from './useFiles.ts';
import { useDownloads } from './useDownloads.ts';
import { useMoveToTrash, useTrashUpkeep } from './useTrash.ts';
import { TrashView } from './TrashView.tsx';
import { VersionsDialog } from './VersionsDialog.tsx';
import { ShareDialog } from '../shares/ShareDialog.tsx';
import { holderName } from '../vaults/providers.tsx';
import { VaultIntegrityError } from '../vaults/manifest/manifestCore.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

export function FileBrowser({ vault }: { vault: Vault }) {
  const { t } = useTranslation();
  const vaultId = vault.id;
  registerVaultStorage(vault); // idempotent: which provider the transfers below talk to
  const list = useFiles(vaultId);
  const reload = useReloadFiles(vaultId);
  const { rename, move } = useFileMutations(vaultId);
  const waiting = useTrashUpkeep(vaultId, list.data);
  const { limits } = useLimits();
  const lost = useLostConnection(vaultId, vault.provider_type);
  const [view, setView] = useState<ViewMode>('list');
  const [uploadOpen, setUploadOpen] = useState(false);
  const [newFolderOpen, setNewFolderOpen] = useState(false);
  const [selection, setSelection] = useState<Selected[]>([]);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<FileEntry | null>(null);
  const [moving, setMoving] = useState<readonly FileEntry[] | null>(null);
  const [versionsOf, setVersionsOf] = useState<string | null>(null);
  const [sharing, setSharing] = useState<FileEntry | null>(null);
  const { downloads, track } = useDownloads();

  const entries = list.data?.live ?? noEntries;
  const v = useFolderView(vaultId, entries, list.data?.tree ?? noTree);
  const { tree, shown, selected } = v;

  const addFiles = (files: (File | Picked)[]) => {
    if (files.length === 0) return;
    setSelection((s) => addToSelection(s, files));
    setUploadOpen(true);
  };
  const drop = useFileDrop(addFiles);

  /** A file as itself; a folder, or several entries, as one ZIP with the folders inside. */
  const download = (chosen: readonly FileEntry[]) => {
    const only = chosen.length === 1 ? chosen[0]! : null;
    if (only && !only.isFolder) {
      return track(only.id, only.name, (o) => downloadFile(vaultId, only, o));
    }
    const name = `${only ? only.name : vault.name}.zip`;
    const zipped = zipEntriesOf(tree, chosen);
    if (zipped.length === 0) return toast.error(t(emptyZip));
    track(`zip:${chosen.map((e) => e.id).join(',')}`, name, (o) =>
      downloadZip(vaultId, zipped, name, o),
    );
  };

  const moveInto = (target: string | null, ids: readonly string[]) => {
    const chosen = v.entriesOf(ids);
    if (!canMoveInto(tree, chosen, target)) return;
    move.mutate(
      { entries: chosen, folder: target },
      { onError: (err) => toast.error(t(userMessage(err, folderTexts.moveFailed))) },
    );
  };

  /** Moves entries to the trash at once; the toast's Undo puts them back. */
  const heading = useRef<HTMLHeadingElement>(null);
  const trash = useMoveToTrash(vaultId, {
    tree,
    entries,
    heading,
    onMoved: () => v.selectAll(false),
  });

  const actions: FileActions = {
    onOpen: (f) => {
      if (f.isFolder) return v.open(f.id);
      setPreviewing(f);
      // A file uploaded before thumbnails gets its own now, from its plaintext.
      if (wantsThumbnail(f)) {
        void thumbnailLater(vaultId, f).then(async (made) => {
          if (made) await reload();
        });
      }
    },
    onRename: (f) => setRenamingId(f.id),
    onMove: (f) => setMoving([f]),
    onDownload: (f) => download([f]),
    onDelete: (f) => trash([f]),
    onVersions: (f) => setVersionsOf(f.id),
    onShare: setSharing,
    onSelect: v.clickSelect,
    dragged: v.dragged,
    onDropInto: (folder, ids) => moveInto(folder.id, ids),
    detail: v.detail,
    itemCount: v.itemCount,
    vaultId,
  };

  const onRenamed = (f: FileEntry, name: string | null) => {
    setRenamingId(null);
    if (!name) return;
    rename.mutate(
      { file: f, name },
      { onError: (err) => toast.error(t(userMessage(err, messages.files.renameFailed))) },
    );
  };

  const count = entries.filter((e) => !e.isFolder).length;
  const trashCount = list.data?.trash.length ?? 0;

  return (
    <section
      aria-labelledby="files-title"
      className="relative min-h-[50vh]"
      {...drop.handlers}
      onKeyDown={(e) => {
        // From a file's checkbox: Ctrl+A (Cmd+A) selects every file shown, Escape clears.
        if (!(e.target instanceof HTMLInputElement) || !('fileSelect' in e.target.dataset)) return;
        if (e.key === 'a' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          v.selectAll(true);
        } else if (e.key === 'Escape' && selected.size > 0) {
          e.preventDefault();
          v.selectAll(false);
        }
      }}
    >
      <FileBrowserHeader
        heading={heading}
        inTrash={v.inTrash}
        count={count}
        trashCount={trashCount}
        shownCount={!v.inTrash && v.searching && entries.length > 0 ? shown.length : null}
        view={view}
        onView={setView}
        loaded={!!list.data}
        onTrash={v.openTrash}
        onNewFolder={() => setNewFolderOpen(true)}
        onUpload={() => setUploadOpen(true)}
      />

      {lost && (
        <CloudConnectionPrompt
          connection={lost}
          onConnected={() => heading.current?.focus()}
          className="mt-4"
        />
      )}
      <DownloadsPanel downloads={downloads} />
      {storageOf(vaultId).capabilities.deviceOnly && list.data && (
        <LocalStorageNotice vaultId={vaultId} refs={list.data.files.map((f) => f.ref)} />
      )}
      {storageOf(vaultId).makeFolder && list.data && !lost && (
        <CloudFolderNotice vaultId={vaultId} refs={list.data.files.map((f) => f.ref)} />
      )}

      {list.isPending ? (
        <p
          role="status"
          className="mt-10 flex items-center justify-center gap-2 text-slate-600 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-5 animate-spin" />{' '}
          {t('Decrypting file names...')}
        </p>
      ) : list.isError ? (
        <p role="alert" className="mt-10 text-center text-red-700 dark:text-red-400">
          {t('Failed to retrieve vault files')}
          {list.error instanceof VaultIntegrityError && (
            <span className="mt-2 block">{list.error.message}</span>
          )}
        </p>
      ) : v.inTrash ? (
        <TrashView
          vaultId={vaultId}
          items={list.data.trash}
          waiting={waiting}
          holder={vault.provider_type === 'server' ? null : holderName(vault.provider_type)}
          tree={tree}
          onBack={() => v.open(null)}
          heading={heading}
        />
      ) : (
        <FolderListing
          data={list.data}
          v={v}
          view={view}
          renamingId={renamingId}
          onRenamed={onRenamed}
          actions={actions}
          onDownload={download}
          onMove={setMoving}
          onDelete={trash}
          onDropInto={moveInto}
        />
      )}

      {drop.dragging && (
        <div
          aria-hidden="true"
          className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-indigo-600/15 backdrop-blur-[2px]"
        >
          <p className="rounded-2xl border-2 border-dashed border-indigo-500 bg-white px-10 py-8 text-lg font-semibold text-indigo-700 shadow-xl dark:bg-slate-900 dark:text-indigo-300">
            {t('Drop files to upload')}
          </p>
        </div>
      )}

      <UploadDialog
        vaultId={vaultId}
        open={uploadOpen}
        selection={selection}
        onSelection={setSelection}
        maxFileSizeMb={limits.max_file_size_mb}
        onAddFiles={addFiles}
        folder={v.current}
        namesIn={v.namesIn}
        fileNamed={v.fileNamed}
        folderFor={folderMaker(vaultId, entries)}
        onClose={() => setUploadOpen(false)}
        onUploaded={reload}
      />
      <NewFolderDialog
        open={newFolderOpen}
        taken={v.namesIn(v.current)}
        onClose={() => setNewFolderOpen(false)}
        onCreate={async (name) => {
          await createFolder(vaultId, name, v.current);
          await reload();
        }}
      />
      <MoveDialog
        moving={moving}
        tree={tree}
        onClose={() => setMoving(null)}
        onMove={(chosen, folder) => move.mutateAsync({ entries: chosen, folder })}
      />
      <Previewer
        vaultId={vaultId}
        lost={lost}
        file={previewing}
        onClose={() => setPreviewing(null)}
        onDownload={(f) => download([f])}
      />
      <ShareDialog
        what={sharing ? { kind: 'file', vaultId, file: sharing } : null}
        title={sharing ? t('Share "{{name}}"', { name: sharing.name }) : t('Share')}
        onClose={() => setSharing(null)}
      />
      <VersionsDialog
        vaultId={vaultId}
        file={versionsOf ? (v.entriesOf([versionsOf])[0] ?? null) : null}
        onClose={() => setVersionsOf(null)}
        onDownload={(f) => download([f])}
      />
    </section>
  );
}

const emptyZip = msg('There are no files in what you chose to download.');
const noEntries: FileEntry[] = [];
const noTree = buildTree(noEntries);
