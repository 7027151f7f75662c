// The import dialog (issue 20): choose a file, check the format we detected (the user may correct
// it), give its password when it has one, read it in the browser, see the preview (counts per
// type, duplicates, what will not be imported), then confirm: every item is encrypted in the
// crypto Worker and the whole import is stored in one request, or nothing is. The parsers are
// loaded only when a file is chosen (import.ts is large).
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { useId, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { userMessage } from '@sealvault/protocol';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { Field, labelClass } from '../../components/Field.tsx';
import { Modal } from '../../components/Modal.tsx';
import { inputClass, PasswordInput } from '../../components/PasswordInput.tsx';
import { Progress } from '../../components/Progress.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { i18n, msg, useTranslation } from '../../i18n/i18n.ts';
import { sessionOf } from '../../vaults/sessionContext.tsx';
import { transferFromStored } from '../itemFormat.ts';
import type { Secret } from '../model.ts';
import { ImportError, type ImportFormat, type ParseResult } from './errors.ts';
import { encryptForImport, storeImport } from './importStore.ts';
import { previewImport, type ImportPreview } from './preview.ts';
import { FORMAT_LABELS, PROTECTED_FORMATS, TYPE_LABELS, withoutDuplicates } from './labels.ts';
import type { ItemType } from './model.ts';

/** The file size limit, checked before the parsers load (import.ts repeats it). */
const MAX_BYTES = 50 * 1024 * 1024;
const TOO_LARGE = msg('This file is larger than 50 MB. Split it and import the parts.');

type Step =
  | { kind: 'choose' }
  | { kind: 'preview'; result: ParseResult; preview: ImportPreview }
  | { kind: 'saving'; done: number; total: number; phase: 'encrypt' | 'store' };

export function ImportDialog({
  vaultId,
  secrets,
  open,
  onClose,
}: {
  vaultId: string;
  secrets: readonly Secret[];
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const formId = useId();
  const [file, setFile] = useState<{ name: string; bytes: Uint8Array } | null>(null);
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [detected, setDetected] = useState<ImportFormat | undefined>();
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const [reading, setReading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const existing = useMemo(() => secrets.map((s) => transferFromStored(s)), [secrets]);

  const reset = () => {
    setFile(null);
    setFormat('');
    setDetected(undefined);
    setPassword('');
    setStep({ kind: 'choose' });
    setError(null);
    setSkipDuplicates(true);
  };
  const close = () => {
    reset();
    onClose();
  };

  const choose = async (chosen: File | undefined) => {
    setError(null);
    setStep({ kind: 'choose' });
    setFile(null);
    setFormat('');
    setPassword('');
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      setError(t(TOO_LARGE));
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setReading(true);
    try {
      const [bytes, { detectFormat }] = await Promise.all([
        chosen.arrayBuffer().then((b) => new Uint8Array(b)),
        import('./import.ts'),
      ]);
      const found = detectFormat(chosen.name, bytes);
      setFile({ name: chosen.name, bytes });
      setDetected(found);
      setFormat(found ?? '');
    } catch (err) {
      setError(t(userMessage(err, msg('This file could not be read.'))));
    } finally {
      setReading(false);
    }
  };

  const read = async () => {
    if (!file) return;
    setError(null);
    setReading(true);
    try {
      const { parseImport } = await import('./import.ts');
      const result = await parseImport(file, {
        ...(format ? { format } : {}),
        ...(password ? { password } : {}),
      });
      if (result.items.length === 0) {
        setError(t('This file holds no items to import.'));
        return;
      }
      setStep({
        kind: 'preview',
        result,
        preview: previewImport(result.items, existing, result.skipped),
      });
    } catch (err) {
      setError(
        err instanceof ImportError
          ? err.message
          : t(userMessage(err, msg('This file could not be read.'))),
      );
    } finally {
      setReading(false);
    }
  };

  const confirm = async () => {
    if (step.kind !== 'preview') return;
    const items = skipDuplicates
      ? withoutDuplicates(step.result.items, step.preview)
      : step.result.items;
    if (items.length === 0) {
      setError(t('Every item of this file is a duplicate: nothing to import.'));
      return;
    }
    const back = step;
    setError(null);
    try {
      const session = sessionOf(vaultId);
      setStep({ kind: 'saving', done: 0, total: items.length, phase: 'encrypt' });
      const records = await encryptForImport(session, items, (done, total) =>
        setStep({ kind: 'saving', done, total, phase: 'encrypt' }),
      );
      setStep({ kind: 'saving', done: items.length, total: items.length, phase: 'store' });
      const n = await storeImport(vaultId, session, records);
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['secrets', vaultId] }),
        qc.invalidateQueries({ queryKey: ['vaults'] }),
      ]);
      toast.success(
        n === 1
          ? t('Imported {{count}} secret.', { count: formatNumber(n) })
          : t('Imported {{count}} secrets.', { count: formatNumber(n) }),
      );
      close();
    } catch (err) {
      setStep(back);
      setError(
        t('Nothing was imported. {{reason}}', {
          reason: t(userMessage(err, msg('The import could not be saved. Please try again.'))),
        }),
      );
    }
  };

  const needsPassword = format !== '' && PROTECTED_FORMATS.has(format);
  const saving = step.kind === 'saving';
  const footer =
    step.kind === 'choose' ? (
      <DialogFooter
        onCancel={close}
        submit={t('Continue')}
        busyText={t('Reading...')}
        busy={reading}
        form={formId}
        submitDisabled={!file || (needsPassword && password === '')}
      />
    ) : (
      <DialogFooter
        onCancel={() => {
          setError(null);
          setStep({ kind: 'choose' });
        }}
        cancelText={t('Back')}
        cancelDisabled={saving}
        submit={t('Import {{count}} items', {
          count: formatNumber(importCount(step, skipDuplicates)),
        })}
        busyText={t('Importing...')}
        busy={saving}
        onSubmit={() => void confirm()}
        icon={<Upload aria-hidden="true" className="size-4" />}
      />
    );

  return (
    <Modal
      open={open}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      size="lg"
      closable={!saving}
      title={t('Import secrets')}
      description={t(
        'The file is read and encrypted in this browser; it is never uploaded as it is.',
      )}
      footer={footer}
    >
      {step.kind === 'choose' && (
        <form
          id={formId}
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            void read();
          }}
        >
          <Field
            label={t('File to import')}
            hint={t(
              'Bitwarden, 1Password, KeePass, KeePassXC, Chrome, Firefox, Safari, Apple Passwords, Proton Pass, LastPass, NordPass, RoboForm, Keeper, Dashlane, Enpass or a SealVault export. At most 50 MB.',
            )}
          >
            <input
              ref={fileInput}
              type="file"
              accept=".json,.csv,.xml,.kdbx,.1pux,.zip,text/csv,application/json"
              onChange={(e) => void choose(e.target.files?.[0])}
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-indigo-700 hover:file:bg-indigo-100 dark:text-slate-300 dark:file:bg-indigo-950 dark:file:text-indigo-200"
            />
          </Field>
          {file && (
            <Field
              label={t('Format')}
              hint={
                detected
                  ? t('Detected from the file. Change it if it is wrong.')
                  : t(
                      'We could not tell the format of this file. Choose it, or continue to see why.',
                    )
              }
            >
              <select
                value={format}
                onChange={(e) => setFormat(e.target.value as ImportFormat | '')}
                className={inputClass}
              >
                <option value="">{t('Not recognised')}</option>
                {Object.entries(FORMAT_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {t(label)}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {file && needsPassword && (
            <Field label={t('File password')} hint={t('The password this file was exported with.')}>
              <PasswordInput
                value={password}
                autoComplete="off"
                onChange={(e) => setPassword(e.target.value)}
                toggleLabel={t('file password')}
              />
            </Field>
          )}
        </form>
      )}
      {step.kind === 'preview' && (
        <PreviewView
          preview={step.preview}
          skipDuplicates={skipDuplicates}
          onSkipDuplicates={setSkipDuplicates}
        />
      )}
      {step.kind === 'saving' && (
        <div role="status" aria-live="polite">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {step.phase === 'encrypt'
              ? t('Encrypting {{done}} of {{total}}...', {
                  done: formatNumber(step.done),
                  total: formatNumber(step.total),
                })
              : t('Saving...')}
          </p>
          <Progress
            label={t('Import progress')}
            value={step.total ? (step.done / step.total) * 100 : 0}
          />
        </div>
      )}
      {error && (
        <p role="alert" className="mt-4 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </Modal>
  );
}

const importCount = (step: Step, skipDuplicates: boolean): number =>
  step.kind === 'preview'
    ? step.preview.total - (skipDuplicates ? step.preview.duplicates.length : 0)
    : step.kind === 'saving'
      ? step.total
      : 0;

function PreviewView({
  preview,
  skipDuplicates,
  onSkipDuplicates,
}: {
  preview: ImportPreview;
  skipDuplicates: boolean;
  onSkipDuplicates: (v: boolean) => void;
}) {
  const { t } = useTranslation();
  const types = (Object.entries(preview.counts) as [ItemType, number][]).filter(([, n]) => n > 0);
  const inFile = preview.duplicates.filter((d) => d.of === 'file');
  const inVault = preview.duplicates.filter((d) => d.of === 'existing');
  return (
    <div className="space-y-5 text-sm text-slate-700 dark:text-slate-300">
      <section aria-labelledby="import-counts">
        <h3 id="import-counts" className={labelClass}>
          {preview.total === 1
            ? t('{{count}} item in this file', { count: formatNumber(preview.total) })
            : t('{{count}} items in this file', { count: formatNumber(preview.total) })}
        </h3>
        <ul aria-label={t('Items per type')} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {types.map(([type, n]) => (
            <li
              key={type}
              className="flex justify-between rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800"
            >
              <span>{t(TYPE_LABELS[type])}</span>
              <span className="font-semibold text-slate-900 dark:text-white">
                {formatNumber(n)}
              </span>
            </li>
          ))}
        </ul>
      </section>
      {preview.duplicates.length > 0 && (
        <section aria-labelledby="import-duplicates">
          <h3 id="import-duplicates" className={labelClass}>
            {t('Duplicates: {{count}}', { count: formatNumber(preview.duplicates.length) })}
          </h3>
          {inVault.length > 0 && (
            <p>
              {t('Already in this vault: {{names}}', { names: names(inVault.map((d) => d.title)) })}
            </p>
          )}
          {inFile.length > 0 && (
            <p>
              {t('Repeated in the file: {{names}}', { names: names(inFile.map((d) => d.title)) })}
            </p>
          )}
          <label className="mt-2 flex items-center gap-2">
            <input
              type="checkbox"
              checked={skipDuplicates}
              onChange={(e) => onSkipDuplicates(e.target.checked)}
              className="size-4 rounded border-slate-300 text-indigo-600"
            />
            {t('Leave the duplicates out')}
          </label>
        </section>
      )}
      {preview.unmapped.length > 0 && (
        <section aria-labelledby="import-unmapped">
          <h3 id="import-unmapped" className={labelClass}>
            {t('Not imported')}
          </h3>
          <ul className="list-disc space-y-1 pl-5">
            {preview.unmapped.map((u) => (
              <li key={u.reason}>
                {u.reason}: {names(u.entries)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** At most 10 names, then how many more. */
function names(list: string[]): string {
  const shown = list.slice(0, 10).map((n) => n || i18n.t('(untitled)'));
  return list.length > 10
    ? i18n.t('{{names}} and {{count}} more', {
        names: shown.join(', '),
        count: formatNumber(list.length - 10),
      })
    : shown.join(', ');
}
