// The app's one place for transient messages: sonner's toasts ('Password copied...', 'Failed to
// rename file'), mounted once at the root in the app's light or dark theme. Sonner announces them
// through its polite aria-live region, which a modal dialog's aria-hidden leaves readable. Code
// anywhere calls `toast.success(text)` or `toast.error(text)` from 'sonner'.
import { CircleAlert, CircleCheck } from 'lucide-react';
import { Toaster as Sonner } from 'sonner';
import { useTranslation } from '../i18n/i18n.ts';
import { useTheme } from '../theme/useTheme.ts';

/** Sonner's colour variables, set to the app's slate palette (text contrast above 12:1). */
const palette = {
  light: { '--normal-bg': '#ffffff', '--normal-border': '#e2e8f0', '--normal-text': '#0f172a' },
  dark: { '--normal-bg': '#1e293b', '--normal-border': '#334155', '--normal-text': '#ffffff' },
} as const;

export function Toaster() {
  const { t } = useTranslation();
  const { theme } = useTheme();
  return (
    <Sonner
      theme={theme}
      position="bottom-center"
      // The region's name (Sonner adds its keyboard shortcut to it).
      containerAriaLabel={t('Notifications')}
      // Long enough to read a sentence; a pointer over a toast holds it.
      duration={5000}
      style={{ ...palette[theme], fontFamily: 'inherit' }}
      toastOptions={{ style: { fontSize: '0.875rem' } }}
      icons={{
        success: (
          <CircleCheck aria-hidden="true" className="text-emerald-600 dark:text-emerald-400" />
        ),
        error: <CircleAlert aria-hidden="true" className="text-red-600 dark:text-red-400" />,
      }}
    />
  );
}
