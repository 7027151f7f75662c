// Previous / next for the admin console's paged lists, with where one is ("Page 2 of 5").
import { buttonClass } from '../components/buttonStyles.ts';
import { formatNumber } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function Pager({
  page,
  total,
  perPage,
  onPage,
  label,
}: {
  page: number;
  total: number;
  perPage: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3">
      <button
        type="button"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1}
        className={buttonClass('secondary')}
      >
        {t('Previous')}
      </button>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        {t('Page {{page}} of {{pages}}', { page: formatNumber(page), pages: formatNumber(pages) })}
      </span>
      <button
        type="button"
        onClick={() => onPage(page + 1)}
        disabled={page >= pages}
        className={buttonClass('secondary')}
      >
        {t('Next')}
      </button>
    </nav>
  );
}
