// A CSV or TSV file as a table for its preview (docs/product.md "Previewer"): the first 1,000 rows
// (csv.ts), the first row as the header, and a line saying how many rows are left out. Cells are
// text in React elements: a cell that looks like a formula or HTML is shown as written.
import { useMemo } from 'react';
import { parseCsv } from './csv.ts';
import { i18n, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

// Separate borders: a sticky header cell keeps its own (collapsed ones scroll away under it).
const cell =
  'border-r border-b border-slate-200 px-3 py-1.5 text-left align-top whitespace-pre-wrap last:border-r-0 dark:border-slate-700';

/** "1 more row is not shown." / "2,345 more rows are not shown." */
export function hiddenRowsText(n: number): string {
  return n === 1
    ? i18n.t('1 more row is not shown.')
    : i18n.t('{{count}} more rows are not shown.', { count: formatNumber(n) });
}

export function CsvView({
  text,
  name,
  truncated,
}: {
  text: string;
  name: string;
  /** The text stops at the 2 MB cap: its last row may be cut, and is left out. */
  truncated: boolean;
}) {
  const { t } = useTranslation();
  const table = useMemo(
    () => parseCsv(text, { tab: /\.tsv$/i.test(name), cut: truncated }),
    [text, name, truncated],
  );
  const [head, ...body] = table.rows;
  const pad = (row: string[]) => [...row, ...Array<string>(table.columns - row.length).fill('')];
  return (
    <>
      <div className="max-h-[65vh] w-fit max-w-full overflow-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table
          aria-label={t('Rows of {{name}}', { name })}
          className="border-separate border-spacing-0 text-sm [&_tbody_tr:last-child_td]:border-b-0"
        >
          {head && (
            <thead className="text-slate-900 dark:text-white">
              <tr>
                {pad(head).map((value, i) => (
                  <th
                    key={i}
                    scope="col"
                    className={`${cell} sticky top-0 bg-slate-100 font-semibold dark:bg-slate-800`}
                  >
                    {value}
                  </th>
                ))}
              </tr>
            </thead>
          )}
          <tbody className="text-slate-800 dark:text-slate-200">
            {body.map((row, r) => (
              <tr key={r} className="even:bg-slate-50 dark:even:bg-slate-800/40">
                {pad(row).map((value, i) => (
                  <td key={i} className={cell}>
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {table.hidden > 0 && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {hiddenRowsText(table.hidden)}
        </p>
      )}
    </>
  );
}
