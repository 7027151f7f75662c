// What a share link holds, on the recipient's page once the link is read (ShareScreen.tsx,
// issue 29): the kind with the owner's name, size, expiry and opens left, the note, the password
// form when there is one, then the buttons that open the content and what it shows: a text or a
// secret (SharedContent.tsx), or a file to save and preview. The state lives in
// useSharedContent.ts; this is its markup.
import { Download, Eye, KeyRound } from 'lucide-react';
import { formatBytes, type ShareInfo } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { BlobPreview, previewsInMemory } from '../files/Previewer.tsx';
import { expiresIn, opensLeft } from './links.ts';
import { shareTexts, type Link, type Unlocked } from './openShare.ts';
import { SharedContent } from './SharedContent.tsx';
import { useSharedContent } from './useSharedContent.ts';

const KIND_LABELS = {
  file: msg('A file'),
  secret: msg('A secret'),
  text: msg('A text'),
} as const;
/** The same, with the owner's name: { name }. */
const KIND_FROM_LABELS = {
  file: msg('A file from {{name}}'),
  secret: msg('A secret from {{name}}'),
  text: msg('A text from {{name}}'),
} as const;

export function Shared({
  link,
  info,
  note,
  unlocked,
}: {
  link: Link;
  info: ShareInfo;
  note: string | null;
  unlocked: Unlocked | null;
}) {
  const { t } = useTranslation();
  const {
    inner,
    meta,
    password,
    setPassword,
    error,
    busy,
    content,
    saved,
    fileBlob,
    submitPassword,
    save,
    open,
  } = useSharedContent(link, info, unlocked);

  const size = info.kind === 'file' ? formatBytes(meta?.size ?? info.size) : null;
  return (
    <div className="mt-4">
      <h1 className="text-xl font-bold text-slate-900 dark:text-white">
        {info.owner_name
          ? t(KIND_FROM_LABELS[info.kind], { name: info.owner_name })
          : t(KIND_LABELS[info.kind])}
      </h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {[size, expiresIn(info.expires_at), opensLeft(info.opens_left)].filter(Boolean).join(' · ')}
      </p>
      {note && (
        <blockquote className="mt-4 rounded-lg border-l-4 border-indigo-400 bg-indigo-50 px-4 py-3 text-sm whitespace-pre-wrap text-slate-800 dark:bg-indigo-950/40 dark:text-slate-200">
          {note}
        </blockquote>
      )}
      {!inner && info.kdf && (
        <form onSubmit={(e) => void submitPassword(e)} className="mt-6">
          <label
            htmlFor="share-password"
            className="text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            {t('Password')}
          </label>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t('The sender protected this link with a password.')}
          </p>
          <div className="mt-2 flex gap-2">
            <input
              id="share-password"
              type="password"
              autoComplete="off"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error === shareTexts.wrongPassword}
              aria-describedby={error ? 'share-error' : undefined}
              className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-white"
            />
            <button type="submit" disabled={busy || !password} className={buttonClass('primary')}>
              <KeyRound aria-hidden="true" className="size-4" />{' '}
              {busy ? t('Checking...') : t('Unlock')}
            </button>
          </div>
        </form>
      )}
      {inner && meta && !content && !fileBlob && !saved && (
        <div className="mt-6">
          {info.kind !== 'text' && (
            <p className="text-sm font-medium break-words text-slate-900 dark:text-white">
              {meta.name}
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              disabled={busy}
              onClick={() => void open()}
              className={buttonClass('primary')}
            >
              {info.kind === 'file' ? (
                <>
                  <Download aria-hidden="true" className="size-4" />
                  {busy ? t('Downloading...') : t('Download')}
                </>
              ) : (
                <>
                  <Eye aria-hidden="true" className="size-4" />
                  {busy
                    ? t('Opening...')
                    : info.kind === 'text'
                      ? t('Show the text')
                      : t('Show the secret')}
                </>
              )}
            </button>
            {info.kind === 'file' && previewsInMemory(meta.mime, meta.name, meta.size) && (
              <button
                type="button"
                disabled={busy}
                onClick={() => void open(false)}
                className={buttonClass('secondary')}
              >
                <Eye aria-hidden="true" className="size-4" /> {t('Preview')}
              </button>
            )}
          </div>
          {info.opens_left !== null && (
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
              {t(shareTexts.opensCounted)}
            </p>
          )}
        </div>
      )}
      {saved && !fileBlob && meta && (
        <p role="status" className="mt-6 text-sm text-emerald-700 dark:text-emerald-400">
          {t('Downloaded "{{name}}".', { name: meta.name })}
        </p>
      )}
      {fileBlob && meta && (
        <div className="mt-6 space-y-3">
          {saved ? (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              {t('Downloaded "{{name}}".', { name: meta.name })}
            </p>
          ) : (
            <button type="button" onClick={() => save(fileBlob)} className={buttonClass('primary')}>
              <Download aria-hidden="true" className="size-4" />{' '}
              {t('Save "{{name}}"', { name: meta.name })}
            </button>
          )}
          {previewsInMemory(meta.mime, meta.name, meta.size) && (
            <BlobPreview
              blob={fileBlob}
              name={meta.name}
              mime={meta.mime}
              onDownload={() => save(fileBlob)}
            />
          )}
        </div>
      )}
      {content && <SharedContent kind={info.kind} item={content} />}
      {error && (
        <p
          id="share-error"
          role="alert"
          className="mt-4 text-sm font-medium text-red-700 dark:text-red-400"
        >
          {t(error)}
        </p>
      )}
    </div>
  );
}
