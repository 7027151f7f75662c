// The short steps to allow popups that follow the spec's popup-blocked text (docs/product.md §8
// "Cloud connections (errors)"), one line per browser; shown under that text wherever a Connect
// failed so (the Settings cards, the vault page's prompt).
import { useTranslation } from '../i18n/i18n.ts';
import { connectTexts, popupSteps } from '../storage/cloud/connect.ts';

/** Whether `error` is the popup-blocked text, which the steps follow. */
export const isPopupBlocked = (error: string | undefined) => error === connectTexts.popupBlocked;

export function PopupSteps({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <ul className={`list-disc space-y-1 pl-5 text-sm ${className}`} aria-label={t('Allow popups')}>
      {/* A browser's name is marked where it is a text ('Chrome and Edge'); a brand's name
          ('Firefox', 'Safari') has no translation and comes back from t() as it is. */}
      {popupSteps.map((s) => (
        <li key={s.browser}>
          <span className="font-medium">{t(s.browser)}:</span> {t(s.step)}
        </li>
      ))}
    </ul>
  );
}
