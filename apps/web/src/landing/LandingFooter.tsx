// The footer: in-page links and account links (nothing dead).
import { Link } from 'react-router';
import { Logo } from '../components/Logo.tsx';
import { formatDate } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { SIGN_IN_PATH, signUpPath } from './links.ts';
import { useSections } from './useLanding.ts';
import { useAfterFirstPaint } from './useAfterFirstPaint.ts';

const linkClass =
  'rounded text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:text-white';

export function LandingFooter() {
  const { t } = useTranslation();
  const sections = useSections();
  // Below the fold ([Note: landing below the fold]).
  if (!useAfterFirstPaint()) return null;
  return (
    <footer className="border-t border-slate-200 dark:border-slate-800">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-10 px-4 py-12 sm:grid-cols-[2fr_1fr_1fr] sm:px-6">
        <div className="col-span-2 sm:col-span-1">
          <Logo />
          <p className="mt-4 max-w-xs text-sm text-slate-600 dark:text-slate-400">
            {t(
              'End-to-end encrypted vaults for your files and secrets. Encrypted in your browser, readable only by you.',
            )}
          </p>
        </div>
        <nav aria-labelledby="footer-product">
          <h2 id="footer-product" className="text-sm font-semibold text-slate-900 dark:text-white">
            {t('Product')}
          </h2>
          <ul className="mt-4 space-y-3">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className={linkClass}>
                  {t(s.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-account">
          <h2 id="footer-account" className="text-sm font-semibold text-slate-900 dark:text-white">
            {t('Account')}
          </h2>
          <ul className="mt-4 space-y-3">
            <li>
              <Link to={SIGN_IN_PATH} className={linkClass}>
                {t('Sign In')}
              </Link>
            </li>
            <li>
              <Link to={signUpPath()} className={linkClass}>
                {t('Create account')}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-200 dark:border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-slate-500 sm:px-6 dark:text-slate-400">
          © {formatDate(new Date(), { year: 'numeric' })} SealVault. {t('Your keys, your data.')}
        </p>
      </div>
    </footer>
  );
}
