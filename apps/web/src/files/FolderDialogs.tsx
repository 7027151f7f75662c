// The two dialogs of folders (docs/product.md §2 "File browser"): `New folder`, which names a folder
// made in the one open, and `Move to`, which picks where the chosen files and folders go, with the
// whole tree shown and the places they cannot go (into themselves, or where they already are)
// disabled. Each reports the server's refusal (a name in use) in the dialog and keeps it open.
import { Folder, Home } from 'lucide-react';
import { useState } from 'react';
import { messageForUser } from '@sealvault/protocol';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import { canMoveInto, type FolderTree } from './folders.ts';
import type { FileEntry } from './model.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export const folderTexts = {
  nameRequired: msg('Enter a name for the folder.'),
  nameSlash: msg('A folder name cannot contain "/".'),
  nameTooLong: msg('A folder name can have at most 255 characters.'),
  nameTaken: msg('A file or folder with this name already exists here.'),
  createFailed: msg('Failed to create folder'),
  moveFailed: msg('Failed to move'),
} as const;

/** Why `name` cannot be a new folder's name among `taken` (NFC names), or null. */
export function folderNameProblem(name: string, taken: ReadonlySet<string>): string | null {
  const n = name.trim();
  if (!n) return folderTexts.nameRequired;
  if (n.includes('/')) return folderTexts.nameSlash;
  if (n.length > 255) return folderTexts.nameTooLong;
  if (taken.has(n.normalize('NFC'))) return folderTexts.nameTaken;
  return null;
}

export function NewFolderDialog({
  open,
  taken,
  onClose,
  onCreate,
}: {
  open: boolean;
  /** The names in the folder it is made in (NFC). */
  taken: ReadonlySet<string>;
  onClose: () => void;
  onCreate: (name: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setName('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    const problem = folderNameProblem(name, taken);
    if (problem) return setError(t(problem));
    setBusy(true);
    try {
      await onCreate(name.trim());
      close();
    } catch (err) {
      const reason = messageForUser(err);
      setError(
        reason ? `${t(folderTexts.createFailed)}: ${t(reason)}` : t(folderTexts.createFailed),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && close()}
      closable={!busy}
      size="sm"
      title={t('New folder')}
      description={t("The folder's name is encrypted like a file's.")}
      footer={
        <DialogFooter
          onCancel={close}
          submit={t('Create folder')}
          busyText={t('Creating...')}
          busy={busy}
          form="new-folder"
        />
      }
    >
      <form
        id="new-folder"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={t('Folder name')} error={error ?? undefined}>
          <input
            value={name}
            autoFocus
            autoComplete="off"
            maxLength={300}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
            className={inputClass}
          />
        </Field>
      </form>
    </Modal>
  );
}

function FolderOption({
  folder,
  depth,
  tree,
  moving,
  choice,
  onChoose,
}: {
  folder: FileEntry | null;
  depth: number;
  tree: FolderTree;
  moving: readonly FileEntry[];
  choice: string | null | undefined;
  onChoose: (folder: string | null) => void;
}) {
  const { t } = useTranslation();
  const id = folder?.id ?? null;
  const movingIds = new Set(moving.map((e) => e.id));
  const subfolders = tree
    .childrenOf(id)
    .filter((e) => e.isFolder && !movingIds.has(e.id))
    .sort((a, b) => a.name.localeCompare(b.name));
  const allowed = canMoveInto(tree, moving, id);
  const Icon = folder ? Folder : Home;
  return (
    <li>
      <label
        className={`flex items-center gap-2 rounded-md py-1.5 pr-2 text-sm ${
          allowed
            ? 'cursor-pointer text-slate-900 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800'
            : 'cursor-not-allowed text-slate-400 dark:text-slate-500'
        }`}
        style={{ paddingLeft: `${0.5 + depth * 1.25}rem` }}
      >
        <input
          type="radio"
          name="move-target"
          disabled={!allowed}
          checked={choice === id}
          onChange={() => onChoose(id)}
          className="size-4 accent-indigo-600"
        />
        <Icon aria-hidden="true" className="size-4 shrink-0 text-indigo-600 dark:text-indigo-400" />
        <span className="truncate">{folder ? folder.name : t('All files')}</span>
      </label>
      {subfolders.length > 0 && (
        <ul>
          {subfolders.map((f) => (
            <FolderOption
              key={f.id}
              folder={f}
              depth={depth + 1}
              tree={tree}
              moving={moving}
              choice={choice}
              onChoose={onChoose}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

export function MoveDialog({
  moving,
  tree,
  onClose,
  onMove,
}: {
  /** What is moved; null when the dialog is closed. */
  moving: readonly FileEntry[] | null;
  tree: FolderTree;
  onClose: () => void;
  onMove: (entries: readonly FileEntry[], folder: string | null) => Promise<unknown>;
}) {
  // undefined: nothing chosen yet (null is the root).
  const { t } = useTranslation();
  const [choice, setChoice] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setChoice(undefined);
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!moving || choice === undefined) return;
    setBusy(true);
    try {
      await onMove(moving, choice);
      close();
    } catch (err) {
      const reason = messageForUser(err);
      setError(reason ? `${t(folderTexts.moveFailed)}: ${t(reason)}` : t(folderTexts.moveFailed));
    } finally {
      setBusy(false);
    }
  };
  const first = moving?.[0];
  const title =
    moving && moving.length === 1 && first
      ? t('Move "{{name}}"', { name: first.name })
      : t('Move {{count}} items', { count: formatNumber(moving?.length ?? 0) });
  return (
    <Modal
      open={moving !== null}
      onOpenChange={(o) => !o && close()}
      closable={!busy}
      title={title}
      description={t('Choose the folder to move to.')}
      footer={
        <DialogFooter
          onCancel={close}
          submit={t('Move here')}
          busyText={t('Moving...')}
          busy={busy}
          submitDisabled={choice === undefined}
          onSubmit={() => void submit()}
        />
      }
    >
      {moving && (
        <fieldset>
          <legend className="sr-only">{t('Folder to move to')}</legend>
          <ul className="max-h-80 overflow-y-auto rounded-lg border border-slate-200 p-1 dark:border-slate-800">
            <FolderOption
              folder={null}
              depth={0}
              tree={tree}
              moving={moving}
              choice={choice}
              onChoose={setChoice}
            />
          </ul>
        </fieldset>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Modal>
  );
}
