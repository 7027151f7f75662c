// The uploads of the upload dialog (UploadDialog.tsx; docs/product.md §4 Upload): each chosen file
// in turn, encrypted and sent with its progress, asking first when its name is in use (replace,
// keep both or skip, NameQuestion.tsx), then the list reloaded and the selection cleared, or what
// did not finish kept to be retried; Cancel stops them. Apart from the dialog since it is the
// batch's state and its calls, with no markup.
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { messages, userMessage } from '@sealvault/protocol';
import { useLeaveGuard } from '../components/useLeaveGuard.ts';
import { mimeOf, overallPercent, sizeProblem, type FileEntry, type Selected } from './model.ts';
import { addThumbnail, hasThumbnailKind } from './thumbnails.ts';
import { freeName } from './listing.ts';
import type { NameAnswer } from './NameQuestion.tsx';
import { uploadFile } from './transfer/upload.ts';
import { makeRoomFor, settleVersions } from './versions.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface Status {
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

export interface UploadBatch {
  vaultId: string;
  selection: Selected[];
  onSelection: (s: Selected[]) => void;
  maxFileSizeMb: number | undefined;
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
}

export function useUploadBatch({
  vaultId,
  selection,
  onSelection,
  maxFileSizeMb,
  folder,
  namesIn,
  fileNamed,
  folderFor,
  onClose,
  onUploaded,
}: UploadBatch) {
  const { t } = useTranslation();
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

  return { status, busy, question, chosen, overall, start, cancel };
}
