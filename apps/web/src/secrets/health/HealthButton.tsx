// Vault health (issue 20, item 6): the "Health" button in the secrets manager's header, with the
// number of secrets that have a finding, and its panel listing the weak, reused and old
// passwords of the unlocked vault. Computed on this device only (useVaultHealth.ts); each entry
// is one click to its card (reveal.ts).
import { HeartPulse, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../../components/buttonStyles.ts';
import type { Secret } from '../model.ts';
import { HealthPanel } from './HealthPanel.tsx';
import { revealSecret } from './reveal.ts';
import { useVaultHealth } from './useVaultHealth.ts';
import { useTranslation } from '../../i18n/i18n.ts';
import { formatNumber } from '../../i18n/format.ts';

export function HealthButton({
  vaultId,
  secrets,
}: {
  /** The vault the secrets are from: its scores are kept while it is unlocked (scoreCache.ts). */
  vaultId: string;
  secrets: readonly Secret[];
}) {
  const { t } = useTranslation();
  const report = useVaultHealth(secrets, { vaultId });
  const [open, setOpen] = useState(false);
  const count = report?.count ?? 0;

  const reveal = (id: string) => {
    const index = secrets.findIndex((s) => s.id === id);
    const secret = secrets[index];
    setOpen(false);
    // After the dialog has closed and given the focus back (Radix's own timeout).
    if (secret) setTimeout(() => void revealSecret(index, secret.title, secrets.length), 0);
  };

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={buttonClass('secondary')}
        aria-label={
          report === null
            ? t('Health, being checked')
            : count === 0
              ? t('Health, no issues')
              : count === 1
                ? t('Health, {{count}} secret to fix', { count: formatNumber(count) })
                : t('Health, {{count}} secrets to fix', { count: formatNumber(count) })
        }
      >
        <HeartPulse aria-hidden="true" className="size-4" /> {t('Health')}
        {report === null ? (
          secrets.some((s) => s.password) && (
            <Loader2 aria-hidden="true" className="size-3.5 animate-spin text-slate-400" />
          )
        ) : (
          <span
            aria-hidden="true"
            className={`min-w-5 rounded-full px-1.5 text-xs leading-5 font-semibold ${
              count === 0
                ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300'
                : 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100'
            }`}
          >
            {formatNumber(count)}
          </span>
        )}
      </button>
      <HealthPanel open={open} onClose={() => setOpen(false)} report={report} onReveal={reveal} />
    </>
  );
}
