// The vault health panel: weak, reused and old passwords, each secret a button that closes the
// panel and goes to its card. Says plainly what each list means and that nothing left the device.
import { Loader2, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { OLD_AFTER_DAYS } from '../tools/health.ts';
import type { HealthEntry, HealthReport } from './useVaultHealth.ts';
import { useTranslation } from '../../i18n/i18n.ts';
import { formatNumber } from '../../i18n/format.ts';

const entryClass =
  'w-full truncate rounded-md px-2 py-1.5 text-left text-sm font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-slate-800';

function Section({
  id,
  title,
  hint,
  count,
  children,
}: {
  id: string;
  title: string;
  hint: string;
  count: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={id} className="space-y-1">
      <h3 id={id} className="flex items-center gap-2 font-semibold text-slate-900 dark:text-white">
        {title}
        <span className="rounded-full bg-slate-100 px-2 text-xs leading-5 text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          {formatNumber(count)}
        </span>
      </h3>
      <p className="text-xs text-slate-600 dark:text-slate-400">{hint}</p>
      {count === 0 ? (
        <p className="py-1 text-sm text-slate-500 dark:text-slate-400">{t('None.')}</p>
      ) : (
        children
      )}
    </section>
  );
}

function Entries({
  entries,
  onReveal,
}: {
  entries: HealthEntry[];
  onReveal: (id: string) => void;
}) {
  return (
    <ul className="-mx-2">
      {entries.map((e) => (
        <li key={e.id}>
          <button type="button" className={entryClass} onClick={() => onReveal(e.id)}>
            {e.title}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function HealthPanel({
  open,
  onClose,
  report,
  onReveal,
}: {
  open: boolean;
  onClose: () => void;
  report: HealthReport | null;
  onReveal: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={t('Vault health')}
      description={t('Checked on this device. No password leaves it.')}
    >
      {report === null ? (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />{' '}
          {t('Checking your passwords...')}
        </p>
      ) : (
        <div className="space-y-5">
          {report.count === 0 && (
            <p
              role="status"
              className="flex items-center gap-2 text-sm text-emerald-800 dark:text-emerald-300"
            >
              <ShieldCheck aria-hidden="true" className="size-4" />{' '}
              {t('No weak, reused or old passwords.')}
            </p>
          )}
          <Section
            id="health-weak"
            title={t('Weak passwords')}
            hint={t('Easy to guess: change them for generated ones.')}
            count={report.weak.length}
          >
            <Entries entries={report.weak} onReveal={onReveal} />
          </Section>
          <Section
            id="health-reused"
            title={t('Reused passwords')}
            hint={t('One password on several sites: a leak at one opens the others.')}
            count={report.reused.length}
          >
            <ul className="space-y-2">
              {report.reused.map((group, i) => (
                <li
                  key={group[0]?.id ?? i}
                  className="rounded-lg border border-slate-200 px-2 py-1 dark:border-slate-800"
                >
                  <p className="px-2 pt-1 text-xs text-slate-600 dark:text-slate-400">
                    {t('Shared by {{count}} secrets', { count: formatNumber(group.length) })}
                  </p>
                  <Entries entries={group} onReveal={onReveal} />
                </li>
              ))}
            </ul>
          </Section>
          <Section
            id="health-old"
            title={t('Old passwords')}
            hint={t('Not changed for {{count}} days or more.', {
              count: formatNumber(OLD_AFTER_DAYS),
            })}
            count={report.old.length}
          >
            <Entries entries={report.old} onReveal={onReveal} />
          </Section>
        </div>
      )}
    </Modal>
  );
}
