// The recipient's page of a share link, `/s/<id>#<secret>` (issue 29, ADR 0012): public, no
// account. It derives the access token and the note's key from the URL, shows what the link is
// (kind, size, the owner's name, the note, expiry, opens left), asks for the password when there
// is one, and only then counts an open and decrypts the content in this browser: a text, a
// secret's fields (masked, with copy buttons) or a file to download. Every link the server will
// not serve reads one message; content that does not decrypt is named as changed and not shown.
import { FileLock2, Loader2, ShieldAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { asItemId, CryptoError } from '@sealvault/crypto';
import {
  publicShareApi,
  shareUnavailableMessage,
  userMessage,
  type ShareInfo,
} from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { secretOf } from './links.ts';
import { uuidOf } from './makeShare.ts';
import { openContent, shareTexts, type Link, type Unlocked } from './openShare.ts';
import { Shared } from './Shared.tsx';

type Step =
  | { at: 'loading' }
  | { at: 'unavailable'; text: string }
  | { at: 'ready'; info: ShareInfo; note: string | null; unlocked: Unlocked | null };

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
