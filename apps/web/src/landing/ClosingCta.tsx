// The closing call to action: an e-mail field that pre-fills the sign-up form on /auth.
import { ArrowRight } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../i18n/i18n.ts';
import { signUpPath } from './links.ts';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

export function ClosingCta() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  // Below the fold ([Note: landing below the fold]).
  if (!useAfterFirstPaint()) return null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(signUpPath(email));
  };

  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 sm:pb-24">
      <div className="relative mx-auto max-w-6xl overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 via-indigo-700 to-slate-900 px-6 py-14 text-center shadow-xl sm:px-12 sm:py-20 dark:from-indigo-700 dark:via-indigo-900 dark:to-slate-900">
        <h2
          id="cta-title"
          className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl"
        >
          {t('Ready to seal your first vault?')}
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-indigo-100">
          {t(
            'Create a free account in a minute. Your data is encrypted before it ever leaves your device.',
          )}
        </p>
        <form
          onSubmit={onSubmit}
          className="mx-auto mt-8 flex max-w-lg flex-col gap-3 sm:flex-row"
          aria-label={t('Get started')}
        >
          <label htmlFor="cta-email" className="sr-only">
            {t('Email address')}
          </label>
          <input
            id="cta-email"
            type="email"
            name="email"
            autoComplete="email"
            placeholder={t('you@example.com')}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="h-12 w-full min-w-0 rounded-lg sm:flex-1 border border-white/20 bg-white px-4 text-base text-slate-900 placeholder:text-slate-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white dark:bg-slate-950 dark:text-white dark:placeholder:text-slate-500"
          />
          <button
            type="submit"
            className="inline-flex h-12 items-center justify-center gap-2 rounded-lg bg-emerald-400 px-6 font-semibold text-slate-950 shadow-sm transition-colors hover:bg-emerald-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {t('Get Started Free')}
            <ArrowRight aria-hidden="true" className="size-4" />
          </button>
        </form>
      </div>
    </section>
  );
}
