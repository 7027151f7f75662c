// The error screen of every route: React Router shows it when a screen throws or its code cannot
// be loaded. After a new release the old page may ask for code files that no longer exist; a
// reload fetches the current ones, so that case offers exactly that.
import { AlertTriangle, RefreshCw } from 'lucide-react';
import { Link, useRouteError } from 'react-router';
import { buttonClass } from './components/buttonStyles.ts';
import { useTranslation } from './i18n/i18n.ts';

const isStaleCode = (err: unknown) =>
  err instanceof Error &&
  /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    err.message,
  );

export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const stale = isStaleCode(error);
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-50 px-6 dark:bg-slate-950">
      <div role="alert" className="max-w-md text-center">
        <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-amber-500" />
        <h1 className="mt-4 text-xl font-semibold text-slate-900 dark:text-white">
          {stale ? t('A new version of SealVault is available') : t('Something went wrong')}
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {stale
            ? t('Reload the page to continue with the latest version.')
            : t('This page could not be shown. Reload to try again; your vaults are safe.')}
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className={buttonClass('primary')}
          >
            <RefreshCw aria-hidden="true" className="size-4" /> {t('Reload')}
          </button>
          <Link to="/" reloadDocument className={buttonClass('secondary')}>
            {t('Home')}
          </Link>
        </div>
      </div>
    </main>
  );
}
