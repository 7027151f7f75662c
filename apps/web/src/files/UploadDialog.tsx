// The upload dialog (docs/product.md §2, §4 Upload): the chosen files with checkboxes and sizes in KB, the
// plan's size check, then per-file and overall progress in percent; Cancel stops the uploads.
// A file whose name is in use in the vault (or earlier in the batch) asks first: replace (the file
// there becomes an older version, versions.ts), keep both (a numbered name) or skip, and the
// answer can apply to the rest of the batch (NameQuestion.tsx).
// After the uploads the list reloads and the selection clears.
// The uploads themselves are useUploadBatch.ts; the list of chosen files is UploadList.tsx.
import { FolderUp, Upload as UploadIcon } from 'lucide-react';
import { useCallback, useRef } from 'react';
import { Modal } from '../components/Modal.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { PICKER_ACCEPT } from './model.ts';
import { NameQuestion } from './NameQuestion.tsx';
import { pickedFromInput, type Picked } from './folderUpload.ts';
import { UploadList } from './UploadList.tsx';
import { useUploadBatch, type UploadBatch } from './useUploadBatch.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export function UploadDialog({
  open,
  onAddFiles,
  ...batch
}: UploadBatch & {
  open: boolean;
  onAddFiles: (files: (File | Picked)[]) => void;
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
  const { selection, onSelection, maxFileSizeMb } = batch;
  const { status, busy, question, chosen, overall, start, cancel } = useUploadBatch(batch);

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
        <UploadList
          selection={selection}
          onSelection={onSelection}
          status={status}
          busy={busy}
          maxFileSizeMb={maxFileSizeMb}
        />
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
