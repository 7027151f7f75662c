// 'Watch Demo': a short, accessible walk-through of how SealVault encrypts (Radix Dialog).
import * as Dialog from '@radix-ui/react-dialog';
import { FileLock2, KeyRound, Server, Tags, UserLock, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../components/buttonStyles.ts';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { signUpPath } from './links.ts';

const steps = [
  {
    icon: UserLock,
    title: msg('Your password stays with you'),
    text: msg(
      'You choose a vault password. It never leaves this device — it is not sent to our server or to anyone else.',
    ),
  },
  {
    icon: KeyRound,
    title: msg('A key is derived in your browser'),
    text: msg(
      'Argon2id, a deliberately slow, memory-hard function, turns the password into a 256-bit key right in the browser.',
    ),
  },
  {
    icon: FileLock2,
    title: msg('Every file gets its own key'),
    text: msg(
      'Each file is encrypted with its own random key using AES-256-GCM, in 256 KiB chunks, so big files stream and any tampering is detected.',
    ),
  },
  {
    icon: Tags,
    title: msg('Names are sealed too'),
    text: msg(
      'File names, types and the fields of your secrets are encrypted along with the contents.',
    ),
  },
  {
    icon: Server,
    title: msg('The server stores only ciphertext'),
    text: msg('What reaches our servers is unreadable without your password.'),
  },
];

/** The dialog with its trigger (the child, e.g. the Watch Demo button); focus returns to it on close. */
export function DemoDialog({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>{children}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900">
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-5 dark:border-slate-800">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">
                {t('How SealVault encrypts your data')}
              </Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                {t('Five steps, all of them on your device.')}
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label={t('Close')}
              className="-m-1 rounded-lg p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
            >
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          <ol className="space-y-5 overflow-y-auto px-6 py-5">
            {steps.map(({ icon: Icon, title, text }, i) => (
              <li key={title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300"
                >
                  <Icon className="size-5" />
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900 dark:text-white">
                    <span className="sr-only">{t('Step {{n}}:', { n: formatNumber(i + 1) })} </span>
                    {t(title)}
                  </h3>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t(text)}</p>
                </div>
              </li>
            ))}
          </ol>
          <div className="flex flex-col-reverse gap-3 border-t border-slate-200 px-6 py-4 sm:flex-row sm:justify-end dark:border-slate-800">
            <Dialog.Close className={buttonClass('secondary')}>{t('Close')}</Dialog.Close>
            <Link to={signUpPath()} className={buttonClass('primary')}>
              {t('Start Free Today')}
            </Link>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
