// Vaults used against the plan's limit (spec §9): green below 70%, yellow from 70%, red from 90%,
// width capped at 100%.
import { isUnlimited, vaultUsage } from '@sealvault/protocol';

const colour = {
  ok: 'bg-emerald-500',
  warning: 'bg-amber-400',
  critical: 'bg-red-500',
} as const;

export function UsageBar({ count, max }: { count: number; max: number }) {
  const { percent, level } = vaultUsage(count, max);
  const label = isUnlimited(max) ? `${count} vaults (unlimited)` : `${count} of ${max} vaults used`;
  return (
    <div className="min-w-48 flex-1">
      <div className="mb-1.5 flex justify-between text-sm">
        <span className="font-medium text-slate-700 dark:text-slate-300">Vault usage</span>
        <span className="text-slate-600 dark:text-slate-400">{label}</span>
      </div>
      {!isUnlimited(max) && (
        <div
          role="progressbar"
          aria-label="Vault usage"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
          aria-valuetext={label}
          data-level={level}
          className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
        >
          <div
            className={`h-full rounded-full ${colour[level]}`}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
    </div>
  );
}
