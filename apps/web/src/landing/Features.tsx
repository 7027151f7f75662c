// Four feature cards.
import { Cloud, FolderLock, KeyRound, LockKeyhole } from 'lucide-react';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

const features = [
  {
    icon: LockKeyhole,
    title: msg('Encrypted before upload'),
    text: msg(
      'Files and secrets are encrypted in your browser with AES-256-GCM. Our servers only ever hold ciphertext.',
    ),
  },
  {
    icon: KeyRound,
    title: msg('Zero-knowledge passwords'),
    text: msg(
      'Each vault has its own password, and it never leaves your device. We cannot reset it, read it or recover it.',
    ),
  },
  {
    icon: FolderLock,
    title: msg('Files and secrets together'),
    text: msg(
      'Keep contracts, photos and videos in file vaults, and site passwords, API keys and notes in secrets vaults.',
    ),
  },
  {
    icon: Cloud,
    title: msg('Storage that sees nothing'),
    text: msg(
      'Keep a vault on SealVault’s encrypted storage, in this browser, or in your own Google Drive or Dropbox: the provider stores ciphertext only.',
    ),
  },
];

export function Features() {
  const { t } = useTranslation();
  // Below the fold ([Note: landing below the fold]).
  if (!useAfterFirstPaint()) return null;
  return (
    <section id="features" aria-labelledby="features-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase dark:text-indigo-400">
            {t('Features')}
          </p>
          <h2
            id="features-title"
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl dark:text-white"
          >
            {t('Privacy that does not depend on trusting us')}
          </h2>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
            {t('Everything sensitive happens on your device. What leaves it is sealed.')}
          </p>
        </div>
        <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map(({ icon: Icon, title, text }) => (
            <li
              key={title}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
            >
              <span
                aria-hidden="true"
                className="inline-flex size-11 items-center justify-center rounded-xl bg-indigo-600 text-white dark:bg-indigo-500"
              >
                <Icon className="size-5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-slate-900 dark:text-white">
                {t(title)}
              </h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-300">
                {t(text)}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
