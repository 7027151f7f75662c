// The warning a vault page shows when what the server returned does not match the vault's
// manifest (ADR 0007): one line per problem, naming the item where its name is known. The items
// concerned are not in the list below it.
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from '../../i18n/i18n.ts';

export function IntegrityNotice({ lines }: { lines: readonly string[] }) {
  const { t } = useTranslation();
  if (lines.length === 0) return null;
  return (
    <section
      role="alert"
      aria-labelledby="integrity-title"
      className="mt-4 flex gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-950 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100"
    >
      <ShieldAlert
        aria-hidden="true"
        className="mt-0.5 size-5 shrink-0 text-red-700 dark:text-red-300"
      />
      <div>
        <h3 id="integrity-title" className="font-semibold">
          {t('This vault does not match its manifest')}
        </h3>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
          {lines.map((line, i) => (
            // Two unnamed items can give the same line: the position keys them.
            <li key={i}>{t(line)}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
