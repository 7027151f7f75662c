// "Share" (issue 29, ADR 0012): the options of a new link (expiry, most opens, password, a note to
// the recipient), then the link with its Copy button. The content is encrypted for the link in
// this browser; a file is copied (so deleting it from the vault does not revoke the link).
import { Link2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SHARE_MAX_OPENS, userMessage, type ShareExpiry } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { CopyLinkButton } from '../components/CopyLinkButton.tsx';
import { Modal } from '../components/Modal.tsx';
import { Progress } from '../components/Progress.tsx';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { EXPIRY_LABELS } from './links.ts';
import { makeShare, type ShareWhat } from './makeShare.ts';

export const shareDialogTexts = {
  failed: msg('The link could not be made. Please try again.'),
  /** Shown with { max: SHARE_MAX_OPENS }. */
  opensInvalid: msg('Enter a number of opens from 1 to {{max}}, or leave it empty.'),
  fileCopy: msg(
    'The link gets its own encrypted copy of the file: deleting the file from the vault does not revoke the link.',
  ),
  password: msg('Send the password another way than the link.'),
  textTooLong: msg('A text can have at most 50,000 characters.'),
  textOnce: msg(
    'Copy the link now: a text belongs to no vault, so its link cannot be copied again later.',
  ),
} as const;

const input =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white';
const label = 'text-sm font-medium text-slate-800 dark:text-slate-200';

export function ShareDialog({
  what,
  title,
  onClose,
}: {
  /** What to share; null: the dialog is closed. "Send a text" asks for the text here. */
  what: ShareWhat | { kind: 'text'; text?: undefined } | null;
  /** What the dialog's title names: `Share "{title}"`, or "Send a text". */
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [expires, setExpires] = useState<ShareExpiry>('7d');
  const [opens, setOpens] = useState('');
  const [password, setPassword] = useState('');
  const [note, setNote] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [url, setUrl] = useState<string | null>(null);
  const typing = what?.kind === 'text' && what.text === undefined;

  const close = () => {
    if (busy) return;
    setUrl(null);
    setError(null);
    setPassword('');
    setNote('');
    setText('');
    setOpens('');
    setProgress(0);
    onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!what) return;
    const maxOpens = opens.trim() === '' ? null : Number(opens);
    if (
      maxOpens !== null &&
      (!Number.isInteger(maxOpens) || maxOpens < 1 || maxOpens > SHARE_MAX_OPENS)
    ) {
      return setError(shareDialogTexts.opensInvalid);
    }
    if (typing && text.length > 50_000) return setError(shareDialogTexts.textTooLong);
    const target: ShareWhat = typing ? { kind: 'text', text } : (what as ShareWhat);
    setBusy(true);
    setError(null);
    try {
      const made = await makeShare(target, { expires, maxOpens, password, note }, setProgress);
      setUrl(made.url);
    } catch (err) {
      setError(userMessage(err, shareDialogTexts.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={what !== null}
      onOpenChange={(o) => !o && close()}
      closable={!busy}
      title={title}
      description={t(
        'Anyone with the link can open it until it expires. The server never sees what you share.',
      )}
    >
      {url ? (
        <div>
          <label htmlFor="share-url" className={label}>
            {t('Link')}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id="share-url"
              readOnly
              value={url}
              className={`${input} font-mono`}
              onFocus={(e) => e.target.select()}
            />
            <CopyLinkButton url={url} variant="primary" className="shrink-0 whitespace-nowrap" />
          </div>
          {password && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              {t(shareDialogTexts.password)}
            </p>
          )}
          {typing && (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              {t(shareDialogTexts.textOnce)}
            </p>
          )}
          <div className="mt-6 flex justify-end">
            <button type="button" onClick={close} className={buttonClass('secondary')}>
              {t('Done')}
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
          {typing && (
            <div>
              <label htmlFor="share-text" className={label}>
                {t('Text')}
              </label>
              <textarea
                id="share-text"
                required
                rows={5}
                value={text}
                onChange={(e) => setText(e.target.value)}
                className={`${input} h-auto py-2`}
              />
            </div>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="share-expiry" className={label}>
                {t('Expires after')}
              </label>
              <select
                id="share-expiry"
                value={expires}
                onChange={(e) => setExpires(e.target.value as ShareExpiry)}
                className={input}
              >
                {(Object.keys(EXPIRY_LABELS) as ShareExpiry[]).map((k) => (
                  <option key={k} value={k}>
                    {t(EXPIRY_LABELS[k])}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="share-opens" className={label}>
                {t('Most opens')}
              </label>
              <input
                id="share-opens"
                inputMode="numeric"
                placeholder={t('No limit')}
                value={opens}
                onChange={(e) => setOpens(e.target.value)}
                className={input}
              />
            </div>
          </div>
          <div>
            <label htmlFor="share-pw" className={label}>
              {t('Password (optional)')}
            </label>
            <input
              id="share-pw"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className={input}
            />
          </div>
          <div>
            <label htmlFor="share-note" className={label}>
              {t('Note to the recipient (optional)')}
            </label>
            <input
              id="share-note"
              value={note}
              maxLength={500}
              onChange={(e) => setNote(e.target.value)}
              className={input}
            />
          </div>
          {what?.kind === 'file' && (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {t(shareDialogTexts.fileCopy)}
            </p>
          )}
          {busy && what?.kind === 'file' && (
            <Progress
              value={Math.round(progress * 100)}
              label={t('Encrypting a copy for the link')}
            />
          )}
          {error && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {t(error, { max: SHARE_MAX_OPENS })}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              onClick={close}
              disabled={busy}
              className={buttonClass('secondary')}
            >
              {t('Cancel')}
            </button>
            <button
              type="submit"
              disabled={busy || (typing && text.trim() === '')}
              className={buttonClass('primary')}
            >
              <Link2 aria-hidden="true" className="size-4" />
              {busy ? t('Making the link...') : t('Create link')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
