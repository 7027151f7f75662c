// The recipient's page of a share link, `/s/<id>#<secret>` (issue 29, ADR 0012): public, no
// account. It derives the access token and the note's key from the URL, shows what the link is
// (kind, size, the owner's name, the note, expiry, opens left), asks for the password when there
// is one, and only then counts an open and decrypts the content in this browser: a text, a
// secret's fields (masked, with copy buttons) or a file to download. Every link the server will
// not serve reads one message; content that does not decrypt is named as changed and not shown.
import { Download, Eye, FileLock2, KeyRound, Loader2, ShieldAlert } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import {
  asFileId,
  asItemId,
  CryptoError,
  type FileMeta,
  type SecretItem,
  type SessionId,
} from '@sealvault/crypto';
import {
  formatBytes,
  publicShareApi,
  shareUnavailableMessage,
  userMessage,
  type ShareInfo,
} from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { cryptoClient } from '../crypto/client.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { BLOB_DOWNLOAD_LIMIT, blobOfPieces, saveBlob } from '../files/transfer/download.ts';
import { BlobPreview, previewsInMemory } from '../files/Previewer.tsx';
import { expiresIn, kdfFromWire, opensLeft, secretOf } from './links.ts';
import { SharedContent } from './SharedContent.tsx';
import { uuidOf } from './makeShare.ts';
import { saveSharedFile, sharedFileStream, type SharedFile } from './sharedFile.ts';

export const shareTexts = {
  incomplete: msg(
    'This link is incomplete: the part after "#" is missing. Ask the sender for the whole link.',
  ),
  wrongPassword: msg('Wrong password. Please try again.'),
  tampered: msg(
    "This link's content does not match what was shared: it was changed or cut on the server. Nothing is shown.",
  ),
  failed: msg('The content could not be loaded. Please try again.'),
  opensCounted: msg('Opening counts as one of the link’s opens.'),
} as const;

type Step =
  | { at: 'loading' }
  | { at: 'unavailable'; text: string }
  | { at: 'ready'; info: ShareInfo; note: string | null; unlocked: Unlocked | null };

interface Link {
  id: string;
  secret: string;
  token: string;
  uuid: string;
}

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

interface Unlocked {
  inner: SessionId;
  meta: FileMeta;
}

/**
 * The content's key (with the password, if any), checked on the content's metadata: null when it
 * does not decrypt (a wrong password; without one, a changed link).
 */
async function openContent(
  link: Pick<Link, 'id' | 'secret' | 'uuid'>,
  info: ShareInfo,
  password: string | null,
): Promise<Unlocked | null> {
  const crypto = cryptoClient();
  const inner = await crypto.openShareContent(
    link.id,
    link.secret,
    password !== null && info.kdf ? { password, kdf: kdfFromWire(info.kdf) } : null,
  );
  try {
    return {
      inner,
      meta: await crypto.decryptMeta(inner, asFileId(link.uuid), null, info.enc_meta),
    };
  } catch {
    await crypto.closeSession(inner);
    return null;
  }
}

export function ShareScreen() {
  const { shareId = '' } = useParams();
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ at: 'loading' });
  const [link, setLink] = useState<Link | null>(null);

  // Not for search engines (the server says so too), whatever the page's parent says.
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);

  useEffect(() => {
    let live = true;
    const secret = secretOf(window.location.hash);
    void (async () => {
      if (!secret) return setStep({ at: 'unavailable', text: shareTexts.incomplete });
      try {
        const crypto = cryptoClient();
        const opened = await crypto.openShare(shareId, secret);
        const uuid = uuidOf(shareId);
        const info = await publicShareApi.info(shareId, opened.token);
        const note = info.enc_note
          ? ((await crypto.decryptItem(opened.outer, asItemId(uuid), 0, info.enc_note)).title ??
            null)
          : null;
        await crypto.closeSession(opened.outer);
        // Without a password, the content's name and size show at once (no open is counted).
        const unlocked = info.kdf
          ? null
          : await openContent({ id: shareId, secret, uuid }, info, null);
        if (!live) return;
        if (!info.kdf && !unlocked)
          return setStep({ at: 'unavailable', text: shareTexts.tampered });
        setLink({ id: shareId, secret, token: opened.token, uuid });
        setStep({ at: 'ready', info, note, unlocked });
      } catch (err) {
        if (!live) return;
        const text =
          err instanceof CryptoError && err.code === 'DECRYPT_FAILED'
            ? shareTexts.tampered
            : err instanceof CryptoError
              ? shareUnavailableMessage
              : userMessage(err, shareUnavailableMessage);
        setStep({ at: 'unavailable', text });
      }
    })();
    return () => {
      live = false;
    };
  }, [shareId]);

  return (
    <main className="flex min-h-dvh items-start justify-center bg-slate-50 px-4 py-12 dark:bg-slate-950">
      <div className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <p className="flex items-center gap-2 text-sm font-semibold text-indigo-700 dark:text-indigo-300">
          <FileLock2 aria-hidden="true" className="size-5" /> {t('SealVault share link')}
        </p>
        {step.at === 'loading' && (
          <p
            role="status"
            className="mt-6 flex items-center gap-2 text-slate-600 dark:text-slate-400"
          >
            <Loader2 aria-hidden="true" className="size-5 animate-spin" />{' '}
            {t('Opening the link...')}
          </p>
        )}
        {step.at === 'unavailable' && (
          <div
            role="alert"
            className="mt-6 flex items-start gap-2 text-slate-800 dark:text-slate-200"
          >
            <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
            <p>{t(step.text)}</p>
          </div>
        )}
        {step.at === 'ready' && link && (
          <Shared link={link} info={step.info} note={step.note} unlocked={step.unlocked} />
        )}
        <p className="mt-8 text-xs text-slate-500 dark:text-slate-400">
          {t(
            'End-to-end encrypted: this page decrypts the content in your browser. The server never sees it, nor the key in the link.',
          )}
        </p>
      </div>
    </main>
  );
}

function Shared({
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
  const [inner, setInner] = useState<SessionId | null>(unlocked?.inner ?? null);
  const [meta, setMeta] = useState<FileMeta | null>(unlocked?.meta ?? null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [content, setContent] = useState<SecretItem | null>(null);
  const [saved, setSaved] = useState(false);
  // A file's bytes once decrypted: previewed and saved from here (one open for both).
  const [fileBlob, setFileBlob] = useState<Blob | null>(null);
  const crypto = cryptoClient();
  const { t } = useTranslation();

  const submitPassword = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const got = await openContent(link, info, password).catch(() => null);
    setBusy(false);
    if (!got) return setError(shareTexts.wrongPassword);
    setInner(got.inner);
    setMeta(got.meta);
  };

  const save = (blob: Blob) => {
    if (!meta) return;
    saveBlob(blob, meta.name);
    setSaved(true);
  };

  const file = (): SharedFile => ({
    link,
    inner: inner!,
    wrappedKey: info.wrapped_key ?? '',
    name: meta!.name,
    size: meta!.size,
  });

  /** A large file straight to disk (sharedFile.ts); false where this browser cannot. */
  const streamToDisk = async (): Promise<boolean> => {
    try {
      const how = await saveSharedFile(file(), shareTexts.failed);
      if (how === 'saved') setSaved(true);
      return how !== 'unavailable';
    } catch (err) {
      setError(
        err instanceof CryptoError && err.code === 'DECRYPT_FAILED'
          ? shareTexts.tampered
          : userMessage(err, shareTexts.failed),
      );
      return true;
    }
  };

  const open = async (andSave = true) => {
    if (!inner || !meta) return;
    setBusy(true);
    setError(null);
    try {
      if (info.kind === 'file' && andSave && meta.size >= BLOB_DOWNLOAD_LIMIT) {
        if (await streamToDisk()) return;
      }
      const opened = await publicShareApi.open(link.id, link.token);
      if ('payload' in opened) {
        const item = await crypto
          .decryptItem(inner, asItemId(link.uuid), 1, opened.payload)
          .catch(() => null);
        if (!item) setError(shareTexts.tampered);
        else setContent(item);
      } else {
        const plain = await sharedFileStream(file(), opened.download);
        // Saved only once every chunk decrypted: a changed or cut file saves nothing.
        const blob = await blobOfPieces(plain, meta.mime || 'application/octet-stream').catch(
          () => null,
        );
        if (!blob) setError(shareTexts.tampered);
        else {
          setFileBlob(blob);
          if (andSave) save(blob);
        }
      }
    } catch (err) {
      setError(userMessage(err, shareTexts.failed));
    } finally {
      setBusy(false);
    }
  };

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
