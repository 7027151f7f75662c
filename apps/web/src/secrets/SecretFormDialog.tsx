// The forms of spec §2: 'Add Secret' / 'Edit Secret' (site password) and 'Add Plain Text Secret',
// with the validation messages of spec §5 and the password generator. When another tab saved the
// same secret first, the newer version is loaded and the user's edit stays in the form.
import { useState } from 'react';
import { RefreshCw, Copy } from 'lucide-react';
import { messages, SecretConflictError, userMessage } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { generatePassword } from './generator.ts';
import {
  emptyFields,
  isPlainText,
  plainTextSchema,
  sitePasswordSchema,
  type Secret,
  type SecretFields,
} from './model.ts';

export type SecretFormMode = { kind: 'site' | 'plain'; secret: Secret | null };

const label = 'mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200';

export function SecretFormDialog({
  mode,
  onClose,
  onSave,
  onCopy,
  latest = null,
}: {
  mode: SecretFormMode | null;
  onClose: () => void;
  onSave: (secret: Secret | null, fields: SecretFields) => Promise<unknown>;
  onCopy: (label: string, value: string) => void;
  /** The secret as the list has it now (refreshed after a conflict). */
  latest?: Secret | null;
}) {
  const [fields, setFields] = useState<SecretFields>(emptyFields);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The revision an edit is based on: the secret's, or the newer one after a conflict.
  const [baseRevision, setBaseRevision] = useState<number | null>(null);
  const [openedFor, setOpenedFor] = useState<SecretFormMode | null>(null);
  if (mode !== openedFor) {
    setOpenedFor(mode);
    setFields(mode?.secret ? { ...mode.secret } : emptyFields);
    setBaseRevision(mode?.secret?.revision ?? null);
    setError(null);
    setNotice(null);
  }
  if (!mode) return null;

  const plain = mode.kind === 'plain';
  const title = plain
    ? mode.secret
      ? 'Edit Plain Text Secret'
      : 'Add Plain Text Secret'
    : mode.secret
      ? 'Edit Secret'
      : 'Add Secret';
  const set = (patch: Partial<SecretFields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setError(null);
  };

  const submit = async () => {
    const parsed = plain ? plainTextSchema.safeParse(fields) : sitePasswordSchema.safeParse(fields);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the form');
    const clean: SecretFields = plain
      ? { ...emptyFields, title: fields.title.trim(), notes: fields.notes }
      : { ...fields, title: fields.title.trim(), url: fields.url.trim() };
    setBusy(true);
    try {
      await onSave(
        mode.secret && { ...mode.secret, revision: baseRevision ?? mode.secret.revision },
        clean,
      );
      onClose();
    } catch (err) {
      if (err instanceof SecretConflictError) {
        setNotice(
          'This secret was changed in another tab or on another device. Your edit is still here: save again to replace the newer version, or take the newer version instead.',
        );
        // Continue from the newer revision so saving again is a deliberate overwrite.
        setBaseRevision(err.current.revision);
      } else {
        setError(
          userMessage(
            err,
            mode.secret ? messages.secrets.updateFailed : messages.secrets.createFailed,
          ),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      closable={!busy}
      title={title}
      footer={
        <DialogFooter
          onCancel={onClose}
          submit={mode.secret ? 'Save changes' : plain ? 'Add Plain Text' : 'Add Secret'}
          busyText="Saving..."
          busy={busy}
          form="secret-form"
        />
      }
    >
      <form
        id="secret-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {notice && (
          <div
            role="status"
            className="space-y-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
          >
            <p>{notice}</p>
            {latest && baseRevision !== null && latest.revision >= baseRevision && (
              <NewerVersion
                latest={latest}
                onUse={() => {
                  setFields({ ...latest });
                  setBaseRevision(latest.revision);
                  setNotice(null);
                }}
              />
            )}
          </div>
        )}
        <div>
          <label htmlFor="secret-title" className={label}>
            Title
          </label>
          <input
            id="secret-title"
            autoFocus
            className={inputClass}
            value={fields.title}
            onChange={(e) => set({ title: e.target.value })}
          />
        </div>
        {!plain && (
          <>
            <div>
              <label htmlFor="secret-username" className={label}>
                Username
              </label>
              <input
                id="secret-username"
                autoComplete="off"
                className={inputClass}
                value={fields.username}
                onChange={(e) => set({ username: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor="secret-password" className={label}>
                Password
              </label>
              <div className="flex gap-2">
                <div className="flex-1">
                  <PasswordInput
                    id="secret-password"
                    autoComplete="new-password"
                    value={fields.password}
                    onChange={(e) => set({ password: e.target.value })}
                  />
                </div>
                <button
                  type="button"
                  onClick={() => set({ password: generatePassword() })}
                  className={buttonClass('secondary', 'md', '!h-11')}
                >
                  <RefreshCw aria-hidden="true" className="size-4" /> Generate
                </button>
                <button
                  type="button"
                  onClick={() => fields.password && onCopy('Password', fields.password)}
                  disabled={!fields.password}
                  aria-label="Copy password"
                  className={buttonClass('secondary', 'md', '!h-11 !px-3')}
                >
                  <Copy aria-hidden="true" className="size-4" />
                </button>
              </div>
            </div>
            <div>
              <label htmlFor="secret-url" className={label}>
                Website
              </label>
              <input
                id="secret-url"
                type="url"
                inputMode="url"
                placeholder="https://"
                className={inputClass}
                value={fields.url}
                onChange={(e) => set({ url: e.target.value })}
              />
            </div>
          </>
        )}
        <div>
          <label htmlFor="secret-notes" className={label}>
            {plain ? 'Content' : 'Notes'}
          </label>
          <textarea
            id="secret-notes"
            rows={plain ? 8 : 3}
            className={`${inputClass} h-auto py-2`}
            value={fields.notes}
            onChange={(e) => set({ notes: e.target.value })}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

function NewerVersion({ latest, onUse }: { latest: Secret; onUse: () => void }) {
  const [shown, setShown] = useState(false);
  const rows: [string, string][] = [
    ['Title', latest.title],
    ['Username', latest.username],
    ['Website', latest.url],
    [isPlainText(latest) ? 'Content' : 'Notes', latest.notes],
  ];
  return (
    <div className="rounded-md border border-amber-200 bg-white/60 p-2 dark:border-amber-800 dark:bg-slate-900/60">
      <p className="font-medium">Newer version</p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
        {rows
          .filter(([, v]) => v !== '')
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-amber-800 dark:text-amber-300">{k}</dt>
              <dd className="break-all whitespace-pre-wrap">{v}</dd>
            </div>
          ))}
        {latest.password !== '' && (
          <div className="contents">
            <dt className="text-amber-800 dark:text-amber-300">Password</dt>
            <dd className="flex items-center gap-2">
              <span className="font-mono break-all">
                {shown ? latest.password : '•'.repeat(Math.min(latest.password.length, 12))}
              </span>
              <button
                type="button"
                onClick={() => setShown((v) => !v)}
                aria-pressed={shown}
                className="font-semibold underline underline-offset-2"
              >
                {shown ? 'Hide newer password' : 'Show newer password'}
              </button>
            </dd>
          </div>
        )}
      </dl>
      <button
        type="button"
        onClick={onUse}
        className="mt-2 text-xs font-semibold underline underline-offset-2"
      >
        Use the newer version
      </button>
    </div>
  );
}
