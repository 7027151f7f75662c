// What the plan allows and what is used of it (docs/product.md §9): vaults against max_vaults, and the bytes
// of files on this server against max_storage_mb. Both bars are green below 70%, yellow from 70%,
// red from 90%, width capped at 100%; an unlimited plan shows no bar.
import {
  formatBytes,
  formatPlanSize,
  isUnlimited,
  storageUsage,
  vaultUsage,
  type Usage,
} from '@sealvault/protocol';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

const colour = {
  ok: 'bg-emerald-500',
  warning: 'bg-amber-400',
  critical: 'bg-red-500',
} as const;

export function UsageBar({ count, max }: { count: number; max: number }) {
  const { t } = useTranslation();
  const label = isUnlimited(max)
    ? t('{{count}} vaults (unlimited)', { count: formatNumber(count) })
    : t('{{count}} of {{max}} vaults used', {
        count: formatNumber(count),
        max: formatNumber(max),
      });
  return (
    <Meter
      title={t('Vault usage')}
      label={label}
      usage={isUnlimited(max) ? null : vaultUsage(count, max)}
    />
  );
}

/** The bytes the user's files take on SealVault storage against the plan's storage quota. */
export function StorageUsageBar({ usedBytes, maxMb }: { usedBytes: number; maxMb: number }) {
  const { t } = useTranslation();
  const used = formatBytes(usedBytes);
  const label = isUnlimited(maxMb)
    ? t('{{used}} used (Unlimited)', { used })
    : t('{{used}} of {{total}} used', { used, total: formatPlanSize(maxMb) });
  return (
    <Meter
      title={t('Storage usage')}
      label={label}
      usage={isUnlimited(maxMb) ? null : storageUsage(usedBytes, maxMb)}
    />
  );
}

function Meter({ title, label, usage }: { title: string; label: string; usage: Usage | null }) {
  return (
    <div className="min-w-48 flex-1">
      <div className="mb-1.5 flex justify-between gap-3 text-sm">
        <span className="font-medium text-slate-700 dark:text-slate-300">{title}</span>
        <span className="text-right text-slate-600 dark:text-slate-400">{label}</span>
      </div>
      {usage && (
        <div
          role="progressbar"
          aria-label={title}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(usage.percent)}
          aria-valuetext={label}
          data-level={usage.level}
          className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
        >
          <div
            className={`h-full rounded-full ${colour[usage.level]}`}
            style={{ width: `${usage.percent}%` }}
          />
        </div>
      )}
    </div>
  );
}
