// The opening section: the promise, 'Start Free Today', and 'Watch Demo' (the encryption walk-through).
import { PlayCircle, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../components/buttonStyles.ts';
import { Trans, useTranslation } from '../i18n/i18n.ts';
import { DemoDialog } from './DemoDialog.tsx';
import { HeroVisual } from './HeroVisual.tsx';
import { signUpPath } from './links.ts';

export function Hero() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-48 -z-10 h-[40rem] bg-radial-[ellipse_at_top] from-indigo-200/70 to-transparent to-65% dark:from-indigo-900/50"
      />
      <div className="mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 pt-14 pb-16 sm:px-6 sm:pt-20 lg:grid-cols-[1.1fr_1fr] lg:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-emerald-200 bg-emerald-50 px-3 py-1 text-sm font-medium text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-300">
            <ShieldCheck aria-hidden="true" className="size-4" />
            {t('End-to-end encrypted')}
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl dark:text-white"
          >
            <Trans
              i18nKey="Your files and secrets, <accent>sealed on your device</accent>"
              components={{ accent: <span className="text-indigo-600 dark:text-indigo-400" /> }}
            />
          </h1>
          <p className="mt-6 max-w-xl text-lg text-pretty text-slate-600 dark:text-slate-300">
            {t(
              'SealVault encrypts documents, photos, passwords and API keys in your browser before anything is uploaded. Your vault password never leaves your device, so nobody else — not even us — can read what you store.',
            )}
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to={signUpPath()} className={buttonClass('primary', 'lg')}>
              {t('Start Free Today')}
            </Link>
            <DemoDialog>
              <button type="button" className={buttonClass('secondary', 'lg')}>
                <PlayCircle aria-hidden="true" className="size-5" />
                {t('Watch Demo')}
              </button>
            </DemoDialog>
          </div>
          <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
            {t('Free plan forever. No credit card needed.')}
          </p>
        </div>
        <HeroVisual />
      </div>
    </section>
  );
}
