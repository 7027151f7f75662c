// The light/dark switch used in every header. Its label names the theme it switches to.
import { Moon, Sun } from 'lucide-react';
import { useTranslation } from '../i18n/i18n.ts';
import { otherTheme } from './theme.ts';
import { useTheme } from './useTheme.ts';

export function ThemeToggle({ className = '' }: { className?: string }) {
  const { theme, toggleTheme } = useTheme();
  const { t } = useTranslation();
  const label =
    otherTheme(theme) === 'dark' ? t('Switch to dark theme') : t('Switch to light theme');
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={label}
      title={label}
      className={`inline-flex size-10 items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white ${className}`}
    >
      {theme === 'dark' ? (
        <Sun aria-hidden="true" className="size-5" />
      ) : (
        <Moon aria-hidden="true" className="size-5" />
      )}
    </button>
  );
}
