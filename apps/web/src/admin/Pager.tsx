// Previous / next for the admin console's paged lists, with where one is ("Page 2 of 5").
import { buttonClass } from '../components/buttonStyles.ts';

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
        Previous
      </button>
      <span className="text-sm text-slate-600 dark:text-slate-400">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        onClick={() => onPage(page + 1)}
        disabled={page >= pages}
        className={buttonClass('secondary')}
      >
        Next
      </button>
    </nav>
  );
}
