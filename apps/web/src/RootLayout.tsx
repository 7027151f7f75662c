// The shell around every route: scroll restoration and the loading states of lazy screens.
import { Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { firstScreenCommitted } from './auth/sessionPrefetch.ts';
import { useTranslation } from './i18n/i18n.ts';

export function RootLayout() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  // After the first screen's own effects ([Note: public page's session check after its paint]).
  useEffect(firstScreenCommitted, []);
  return (
    <>
      {navigation.state === 'loading' && (
        <div
          role="progressbar"
          aria-label={t('Loading page')}
          className="fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-indigo-500"
        />
      )}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** Shown while the first screen's code loads. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className="flex min-h-dvh items-center justify-center text-slate-500 dark:text-slate-400"
    >
      <Loader2 aria-hidden="true" className="size-6 animate-spin" />
      <span className="sr-only">{t('Loading…')}</span>
    </div>
  );
}
