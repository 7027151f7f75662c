// One vault on the dashboard (docs/product.md §2 "Dashboard view"): name, description, type, provider,
// Locked/Unlocked badge, counts, total size (file vaults: a secrets vault's records are not
// counted in it, so it shows none) and the last unlock on this device. The whole card opens the
// vault; the move and delete buttons show only while the vault is unlocked.
import { ArrowRightLeft, CheckCircle2, FolderLock, KeyRound, Lock, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { formatBytes, type Vault } from '@sealvault/protocol';
import { useIsUnlocked } from './sessionContext.tsx';
import { ProviderIcon, providerInfo } from './providerInfo.tsx';
import { formatDate } from './format.ts';
import { lastAccessedOf } from './lastAccessed.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export function VaultCard({
  vault,
  onDelete,
  onMove,
}: {
  vault: Vault;
  onDelete: (v: Vault) => void;
  /** "Move to another provider" (issue 27), offered while the vault is unlocked. */
  onMove?: (v: Vault) => void;
}) {
  const { t } = useTranslation();
  const unlocked = useIsUnlocked(vault.id);
  const secrets = vault.vault_type === 'secrets';
  const TypeIcon = secrets ? KeyRound : FolderLock;
  const count = secrets
    ? vault.secrets_count === 1
      ? t('{{count}} secret', { count: formatNumber(vault.secrets_count) })
      : t('{{count}} secrets', { count: formatNumber(vault.secrets_count) })
    : vault.file_count === 1
      ? t('{{count}} file', { count: formatNumber(vault.file_count) })
      : t('{{count}} files', { count: formatNumber(vault.file_count) });
  const lastAccessed = lastAccessedOf(vault.id);
  return (
    <li className="group relative flex min-w-0 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow-md focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700">
      {/* The dashboard's title is the h1; each card is an h2 (no skipped level). The name comes
          first for a screen reader and is truncated on screen, with the whole name as a tooltip. */}
      <h2 className="mt-4 truncate text-base font-semibold text-slate-900 dark:text-white">
        <Link
          to={`/vault/${vault.id}`}
          title={vault.name}
          className="outline-none after:absolute after:inset-0 after:rounded-2xl"
        >
          {vault.name}
        </Link>
      </h2>
      {/* Shown above the name; the badge and the delete button are siblings in one flex row, so
          they cannot overlap at any width. The button sits above the card's link overlay. */}
      <div className="order-first flex items-start justify-between gap-3">
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300"
        >
          <TypeIcon className="size-5" />
        </span>
        <div className="flex shrink-0 items-center gap-1.5">
          {unlocked ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
              <CheckCircle2 aria-hidden="true" className="size-3.5" /> {t('Unlocked')}
            </span>
          ) : (
            <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              <Lock aria-hidden="true" className="size-3.5" /> {t('Locked')}
            </span>
          )}
          {unlocked && onMove && (
            <button
              type="button"
              onClick={() => onMove(vault)}
              aria-label={t('Move vault {{name}} to another provider', { name: vault.name })}
              title={t('Move to another provider')}
              className="relative z-10 rounded-lg p-1.5 text-slate-500 hover:bg-indigo-50 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-indigo-950 dark:hover:text-indigo-300"
            >
              <ArrowRightLeft aria-hidden="true" className="size-4" />
            </button>
          )}
          {unlocked && (
            <button
              type="button"
              onClick={() => onDelete(vault)}
              aria-label={t('Delete vault {{name}}', { name: vault.name })}
              className="relative z-10 rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 dark:text-slate-400 dark:hover:bg-red-950 dark:hover:text-red-400"
            >
              <Trash2 aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
      </div>
      {vault.description && (
        <p className="mt-1 line-clamp-2 text-sm text-slate-600 dark:text-slate-400">
          {vault.description}
        </p>
      )}
      <p className="mt-3 flex items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span>{secrets ? t('Secrets vault') : t('File vault')}</span>
        <span aria-hidden="true">·</span>
        <span className="inline-flex items-center gap-1">
          <ProviderIcon provider={vault.provider_type} className="size-3.5" />
          {t(providerInfo(vault.provider_type).name)}
        </span>
      </p>
      <dl className="mt-4 grid grid-cols-3 gap-2 border-t border-slate-100 pt-4 text-xs dark:border-slate-800">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">
            {secrets ? t('Secrets') : t('Files')}
          </dt>
          <dd className="mt-0.5 font-medium text-slate-900 dark:text-slate-100">{count}</dd>
        </div>
        {!secrets && (
          <div>
            <dt className="text-slate-500 dark:text-slate-400">{t('Size')}</dt>
            <dd className="mt-0.5 font-medium text-slate-900 dark:text-slate-100">
              {formatBytes(vault.total_size)}
            </dd>
          </div>
        )}
        {/* Kept per device by design (ADR 0007): the server is not told of unlocks. */}
        <div className={secrets ? 'col-span-2' : undefined}>
          <dt className="text-slate-500 dark:text-slate-400">
            {t('Last accessed on this device')}
          </dt>
          <dd className="mt-0.5 font-medium text-slate-900 dark:text-slate-100">
            {lastAccessed ? formatDate(lastAccessed) : t('Never')}
          </dd>
        </div>
      </dl>
    </li>
  );
}
