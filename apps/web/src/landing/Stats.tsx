// The statistics strip: the operator's claims (GET /api/landing; by default the spec's §1
// marketing claims, verbatim). While they load the strip keeps its height, empty; without any it
// is not shown. The default claims are shown in the reader's language (catalogued from the
// protocol's LANDING_DEFAULTS); an operator's own as written.
import { useTranslation } from '../i18n/i18n.ts';
import { useLanding } from './useLanding.ts';

/** Columns from md up, by how many claims there are (1 to 6; whole class names for Tailwind). */
const COLUMNS = [
  '',
  'md:grid-cols-1',
  'md:grid-cols-2',
  'md:grid-cols-3',
  'md:grid-cols-4',
  'md:grid-cols-5',
  'md:grid-cols-6',
];

export function Stats() {
  const { t } = useTranslation();
  const { data, isPending } = useLanding();
  if (isPending) {
    return (
      <div
        aria-hidden="true"
        data-testid="stats-loading"
        className="h-56 bg-slate-900 md:h-32 lg:h-36 dark:bg-slate-900/60"
      />
    );
  }
  const stats = data?.stats ?? [];
  if (stats.length === 0) return null;
  return (
    <section aria-label={t('SealVault in numbers')} className="bg-slate-900 dark:bg-slate-900/60">
      <dl
        className={`mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-8 px-4 py-12 sm:py-14 sm:px-6 ${COLUMNS[stats.length] ?? 'md:grid-cols-6'}`}
      >
        {stats.map(({ value, label }, i) => (
          <div
            key={`${i}-${label}`}
            className={`flex flex-col-reverse items-center text-center ${i === stats.length - 1 && stats.length % 2 === 1 ? 'col-span-2 md:col-span-1' : ''}`}
          >
            <dt className="mt-1 text-sm font-medium tracking-wide text-slate-400 uppercase">
              {t(label)}
            </dt>
            <dd className="text-3xl font-extrabold tracking-tight whitespace-nowrap text-white md:text-2xl lg:text-4xl">
              {t(value)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
