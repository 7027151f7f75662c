// One secret (docs/product.md §2 "Secrets manager"): edit, delete, copy, show/hide password, and the created
// and updated dates. A secret with notes but no username or password shows as plain text. Each item
// type of issue 20 has its icon and its rows (CardRows.tsx).
import {
  Braces,
  CreditCard,
  FileText,
  IdCard,
  KeyRound,
  Pencil,
  StickyNote,
  Terminal,
  Trash2,
  Link2,
} from 'lucide-react';
import { formatDate } from '../i18n/format.ts';
import { cardType, type Secret } from './model.ts';
import type { ItemType } from './transfer/model.ts';
import { CardBody, iconButton } from './CardRows.tsx';
import { useTranslation } from '../i18n/i18n.ts';

// Short dates (docs/product.md §9 "Display"), in the reader's conventions.
const DATE: Intl.DateTimeFormatOptions = { month: 'numeric', day: 'numeric', year: 'numeric' };

const ICONS: Record<ItemType, typeof KeyRound> = {
  login: KeyRound,
  text: FileText,
  note: StickyNote,
  card: CreditCard,
  identity: IdCard,
  ssh: Terminal,
  apikey: Braces,
};

export function SecretCard({
  secret,
  onEdit,
  onDelete,
  onCopy,
  onShare,
}: {
  secret: Secret;
  onEdit: () => void;
  onDelete: () => void;
  /** Makes a share link for it (issue 29); absent: not offered. */
  onShare?: () => void;
  onCopy: (label: string, value: string) => void;
}) {
  const { t } = useTranslation();
  const Icon = ICONS[cardType(secret)];
  return (
    <article
      aria-label={secret.title}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 className="flex min-w-0 items-center gap-2 font-semibold text-slate-900 dark:text-white">
          <Icon
            aria-hidden="true"
            className="size-4 shrink-0 text-indigo-600 dark:text-indigo-300"
          />
          <span className="truncate" title={secret.title}>
            {secret.title}
          </span>
        </h3>
        <div className="flex shrink-0 gap-1">
          <button
            type="button"
            onClick={onEdit}
            aria-label={t('Edit {{title}}', { title: secret.title })}
            className={iconButton}
          >
            <Pencil aria-hidden="true" className="size-4" />
          </button>
          {onShare && (
            <button
              type="button"
              onClick={onShare}
              aria-label={t('Share {{title}}', { title: secret.title })}
              className={iconButton}
            >
              <Link2 aria-hidden="true" className="size-4" />
            </button>
          )}
          <button
            type="button"
            onClick={onDelete}
            aria-label={t('Delete {{title}}', { title: secret.title })}
            className={`${iconButton} hover:!text-red-600`}
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </button>
        </div>
      </div>
      <dl className="mt-3 space-y-2 text-sm">
        <CardBody secret={secret} onCopy={onCopy} />
      </dl>
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">
        {t('Created {{created}} · Updated {{updated}}', {
          created: formatDate(secret.created_at, DATE),
          updated: formatDate(secret.updated_at, DATE),
        })}
      </p>
    </article>
  );
}
