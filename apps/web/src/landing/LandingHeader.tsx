// The sticky top bar: logo, in-page navigation, theme toggle and Sign In.
import { Link } from 'react-router';
import { buttonClass } from '../components/buttonStyles.ts';
import { Logo } from '../components/Logo.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';
import { SIGN_IN_PATH } from './links.ts';
import { useSections } from './useLanding.ts';

export function LandingHeader() {
  const { t } = useTranslation();
  const sections = useSections();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur-md dark:border-slate-800/80 dark:bg-slate-950/85">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          to="/"
          aria-label={t('SealVault home')}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
        >
          <Logo />
        </Link>
        <nav aria-label={t('Main')} className="hidden md:block">
          <ul className="flex items-center gap-1">
            {sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className={buttonClass('ghost', 'md', 'font-medium')}>
                  {t(s.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <Link to={SIGN_IN_PATH} className={buttonClass('primary', 'md')}>
            {t('Sign In')}
          </Link>
        </div>
      </div>
    </header>
  );
}
