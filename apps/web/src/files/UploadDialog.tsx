// The upload dialog (docs/product.md §2, §4 Upload): the chosen files with checkboxes and sizes in KB, the
// plan's size check, then per-file and overall progress in percent; Cancel stops the uploads.
// A file whose name is in use in the vault (or earlier in the batch) asks first: replace (the file
// there becomes an older version, versions.ts), keep both (a numbered name) or skip, and the
// answer can apply to the rest of the batch (NameQuestion.tsx).
// After the uploads the list reloads and the selection clears.
import { CheckCircle2, FolderUp, Upload as UploadIcon } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import { formatBytes, messages, userMessage } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { Progress } from '../components/Progress.tsx';
import { useLeaveGuard } from '../components/useLeaveGuard.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import {
  mimeOf,
  overallPercent,
  PICKER_ACCEPT,
  sizeProblem,
  type FileEntry,
  type Selected,
} from './model.ts';
import { addThumbnail, hasThumbnailKind } from './thumbnails.ts';
import { freeName } from './listing.ts';
import { NameQuestion, type NameAnswer } from './NameQuestion.tsx';
import { uploadFile } from './transfer/upload.ts';
import { pickedFromInput, type Picked } from './folderUpload.ts';
import { makeRoomFor, settleVersions } from './versions.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

interface Status {
  percent: number;
  error?: string;
  done?: boolean;
  /** Not uploaded: its name was in use and the user chose to skip it. */
  skipped?: boolean;
  /** The name it is uploaded under, when not its own ("Keep both"). */
  savedAs?: string;
  /** A request failed and tus is retrying it (the connection was lost). */
  retrying?: boolean;
}

export function UploadDialog({
  vaultId,
  open,
  selection,
  onSelection,
  maxFileSizeMb,
  onAddFiles,
  folder,
  namesIn,
  fileNamed,
  folderFor,
  onClose,
  onUploaded,
}: {
  vaultId: string;
  open: boolean;
  selection: Selected[];
  onSelection: (s: Selected[]) => void;
  maxFileSizeMb: number | undefined;
  onAddFiles: (files: (File | Picked)[]) => void;
  /** The folder the files go to (null: the vault's root). */
  folder: string | null;
  /** The names in a folder now (NFC), to ask before a second file of the same name. */
  namesIn: (folder: string | null) => ReadonlySet<string>;
  /** The file of that name in a folder, which a new upload can replace. */
  fileNamed: (folder: string | null, name: string) => FileEntry | undefined;
  /** Finds or makes the folders a file chosen with its folder sits in; answers the last one's id. */
  folderFor: (base: string | null, dir: readonly string[]) => Promise<string | null>;
  onClose: () => void;
  onUploaded: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  // The folder picker: webkitdirectory is not in React's attribute types; set it on the element
  // when it mounts (the dialog's content mounts after this component renders).
  const folderPicker = useRef<HTMLInputElement | null>(null);
  const folderInput = useCallback((el: HTMLInputElement | null) => {
    folderPicker.current = el;
    if (el) el.webkitdirectory = true;
  }, []);
  const [status, setStatus] = useState<Record<string, Status>>({});
  const [busy, setBusy] = useState(false);
  useLeaveGuard(busy);
  const abort = useRef<AbortController | null>(null);
  const [question, setQuestion] = useState<{
    name: string;
    inFolder: boolean;
    savedAs: string;
    more: number;
    canReplace: boolean;
    answer: (a: NameAnswer | null) => void;
  } | null>(null);

  const chosen = selection.filter((s) => s.checked && !sizeProblem(s.file.size, maxFileSizeMb));
  const overall = overallPercent(
    chosen.map((s) => ({
      sent: ((status[s.key]?.percent ?? 0) / 100) * s.file.size,
      total: s.file.size,
    })),
  );

  const start = async () => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setBusy(true);
    let failed = false;
    const doneKeys = new Set<string>();
    const key = (n: string) => n.normalize('NFC');
    // The names in each folder the batch reaches, as they were and with what the batch adds.
    const namesBy = new Map<string | null, Set<string>>();
    const names = (at: string | null) => {
      let set = namesBy.get(at);
      if (!set) namesBy.set(at, (set = new Set(namesIn(at))));
      return set;
    };
    // The names this batch uploaded, per folder: a second file of one of them cannot replace it.
    const batchNames = new Map<string | null, Set<string>>();
    const ofBatch = (at: string | null) => {
      let set = batchNames.get(at);
      if (!set) batchNames.set(at, (set = new Set()));
      return set;
    };
    // Names in use, counting a second file of one name in the batch: for "the other N".
    let inUse = 0;
    const seen = new Map<string, Set<string>>();
    for (const s of chosen) {
      const where = s.dir.join('/');
      const set = seen.get(where) ?? new Set(s.dir.length ? [] : names(folder));
      seen.set(where, set);
      if (set.has(key(s.file.name))) inUse += 1;
      else set.add(key(s.file.name));
    }
    let asked = 0;
    let always: NameAnswer['choice'] | null = null;
    let skippedCount = 0;
    for (const s of chosen) {
      if (ctrl.signal.aborted) break;
      const set = (st: Status) => setStatus((prev) => ({ ...prev, [s.key]: st }));
      let name = s.file.name;
      let target: string | null;
      try {
        target = s.dir.length ? await folderFor(folder, s.dir) : folder;
      } catch (err) {
        failed = true;
        if (ctrl.signal.aborted) break;
        set({ percent: 0, error: userMessage(err, messages.files.uploadFailed) });
        continue;
      }
      const here = names(target);
      let replacing: FileEntry | undefined;
      if (here.has(key(name))) {
        const savedAs = freeName(name, here);
        const existing = ofBatch(target).has(key(name)) ? undefined : fileNamed(target, name);
        asked += 1;
        let choice =
          always ??
          (await new Promise<NameAnswer | null>((answer) => {
            setQuestion({
              name,
              inFolder: target !== null,
              savedAs,
              more: Math.max(0, inUse - asked),
              canReplace: existing !== undefined,
              answer,
            });
            ctrl.signal.addEventListener('abort', () => answer(null), { once: true });
          }).then((a) => {
            setQuestion(null);
            if (a?.forRest) always = a.choice;
            return a?.choice ?? null;
          }));
        if (choice === null) break; // cancelled while asking
        if (choice === 'skip') {
          skippedCount += 1;
          set({ percent: 0, skipped: true });
          doneKeys.add(s.key);
          continue;
        }
        // "Replace" for the rest of a batch keeps both where there is nothing to replace.
        if (choice === 'replace' && !existing) choice = 'keep-both';
        if (choice === 'replace') replacing = existing;
        else name = savedAs;
      }
      here.add(key(name));
      ofBatch(target).add(key(name));
      set({ percent: 0, ...(name !== s.file.name ? { savedAs: name } : {}) });
      try {
        const update = (patch: Partial<Status>) =>
          setStatus((prev) => {
            const cur = prev[s.key] ?? { percent: 0 };
            const next = { ...cur, ...patch };
            return next.percent === cur.percent && next.retrying === cur.retrying
              ? prev
              : { ...prev, [s.key]: next };
          });
        // Replacing: the file there becomes an older version of the one this upload makes.
        const newId = replacing ? globalThis.crypto.randomUUID() : undefined;
        if (replacing && newId) await makeRoomFor(vaultId, replacing, newId);
        const id = await uploadFile(
          vaultId,
          s.file,
          (sent) => update({ percent: Math.floor(sent * 100) }),
          ctrl.signal,
          (retrying) => update({ retrying }),
          { name, folder: target, ...(newId ? { id: newId } : {}) },
        );
        if (replacing) await settleVersions(vaultId, replacing, id);
        // Its thumbnail, made here from the plaintext; a picture that cannot be drawn has none.
        if (id && hasThumbnailKind(mimeOf(s.file), name)) {
          await addThumbnail(vaultId, id, s.file, mimeOf(s.file), name).catch(() => false);
        }
        set({ percent: 100, done: true, ...(name !== s.file.name ? { savedAs: name } : {}) });
        doneKeys.add(s.key);
      } catch (err) {
        failed = true;
        if (ctrl.signal.aborted) break;
        set({ percent: 0, error: userMessage(err, messages.files.uploadFailed) });
      }
    }
    // Not busy once the last file has ended, in the same render as its outcome: a Cancel pressed
    // while the list refreshes closes the dialog (it used to abort what had already ended).
    setBusy(false);
    abort.current = null;
    const allDone = !failed && !ctrl.signal.aborted;
    if (!allDone) {
      // Keep only what did not finish, so it can be retried.
      setStatus((prev) =>
        Object.fromEntries(Object.entries(prev).filter(([, v]) => !v.done && !v.skipped)),
      );
      onSelection(selection.filter((s) => !doneKeys.has(s.key)));
    }
    await onUploaded();
    if (allDone) {
      if (skippedCount > 0) {
        toast(
          skippedCount === 1
            ? t('{{count}} file skipped: the name is in use.', {
                count: formatNumber(skippedCount),
              })
            : t('{{count}} files skipped: the name is in use.', {
                count: formatNumber(skippedCount),
              }),
        );
      }
      setStatus({});
      onSelection([]);
      onClose();
    }
  };

  const cancel = () => {
    if (busy) {
      abort.current?.abort(new Error('Upload cancelled'));
      return;
    }
    setStatus({});
    onSelection([]);
    onClose();
  };

  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && cancel()}
      // A stray Escape must not throw away a long upload: only Cancel stops it.
      closable={!busy}
      title={t('Upload Files')}
      description={t('Files are encrypted on this device before they are uploaded.')}
      size="lg"
      footer={
        <DialogFooter
          onCancel={cancel}
          cancelDisabled={false}
          submit={t('Upload')}
          busyText={t('Uploading...')}
          busy={busy}
          submitDisabled={chosen.length === 0}
          icon={<UploadIcon aria-hidden="true" className="size-4" />}
          onSubmit={() => void start()}
        />
      }
    >
      <input
        ref={picker}
        type="file"
        multiple
        accept={PICKER_ACCEPT}
        aria-label={t('Choose files to upload')}
        className="sr-only"
        tabIndex={-1}
        onChange={(e) => {
          onAddFiles([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        aria-label={t('Choose a folder to upload')}
        className="sr-only"
        tabIndex={-1}
        onChange={(e) => {
          onAddFiles(pickedFromInput([...(e.target.files ?? [])]));
          e.target.value = '';
        }}
      />
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="button"
          disabled={busy}
          onClick={() => picker.current?.click()}
          className={buttonClass('secondary', 'md', 'flex-1 border-dashed')}
        >
          {t('Choose files')}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => folderPicker.current?.click()}
          className={buttonClass('secondary', 'md', 'flex-1 border-dashed')}
        >
          <FolderUp aria-hidden="true" className="size-4" /> {t('Choose a folder')}
        </button>
      </div>
      {question && (
        <NameQuestion
          name={question.name}
          inFolder={question.inFolder}
          savedAs={question.savedAs}
          more={question.more}
          canReplace={question.canReplace}
          onAnswer={question.answer}
        />
      )}
      {selection.length > 0 && (
        <ul
          aria-label={t('Selected files')}
          className="mt-4 divide-y divide-slate-200 dark:divide-slate-800"
        >
          {selection.map((s) => {
            const problem = sizeProblem(s.file.size, maxFileSizeMb);
            const st = status[s.key];
            return (
              <li key={s.key} className="py-2">
                <label className="flex items-center gap-3 text-sm">
                  <input
                    type="checkbox"
                    checked={s.checked && !problem}
                    disabled={busy || !!problem}
                    onChange={(e) =>
                      onSelection(
                        selection.map((x) =>
                          x.key === s.key ? { ...x, checked: e.target.checked } : x,
                        ),
                      )
                    }
                    className="size-4 accent-indigo-600"
                  />
                  <span className="min-w-0 flex-1 truncate text-slate-900 dark:text-slate-100">
                    {s.dir.length > 0 && (
                      <span className="text-slate-500 dark:text-slate-400">{s.dir.join('/')}/</span>
                    )}
                    {s.file.name}
                  </span>
                  <span className="text-slate-600 tabular-nums dark:text-slate-400">
                    {formatBytes(s.file.size)}
                  </span>
                  {st?.done ? (
                    <CheckCircle2 aria-label={t('Uploaded')} className="size-4 text-emerald-600" />
                  ) : st?.skipped ? (
                    <span className="text-slate-600 dark:text-slate-400">{t('Skipped')}</span>
                  ) : st ? (
                    <span className="w-10 text-right text-slate-700 tabular-nums dark:text-slate-300">
                      {formatNumber(st.percent / 100, { style: 'percent' })}
                    </span>
                  ) : null}
                </label>
                {st?.savedAs && (
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    {t('Saved as "{{name}}"', { name: st.savedAs })}
                  </p>
                )}
                {st && !st.done && !st.error && !st.skipped && (
                  <Progress
                    label={t('Upload progress of {{name}}', { name: s.file.name })}
                    value={st.percent}
                  />
                )}
                {st?.retrying && !st.done && !st.error && (
                  <p role="status" className="mt-1 text-sm text-amber-700 dark:text-amber-400">
                    {t('Connection lost. Retrying...')}
                  </p>
                )}
                {(problem ?? st?.error) && (
                  <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
                    {t(problem ?? st?.error ?? '')}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <p aria-live="polite" className="mt-4 text-sm font-medium text-slate-700 dark:text-slate-300">
        {busy
          ? t('Uploading... {{percent}}', {
              percent: formatNumber(overall / 100, { style: 'percent' }),
            })
          : ''}
      </p>
    </Modal>
  );
}
