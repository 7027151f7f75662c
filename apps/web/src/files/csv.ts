// A CSV or TSV file as the rows of a table, for its preview (docs/product.md "Previewer"): parsed
// with papaparse (quoted fields, line breaks inside quotes, a BOM), never by hand. Only the first
// rows are kept; the rest are counted, so the preview can say how many it leaves out.
import Papa from 'papaparse';

/** How many rows a CSV preview shows, the first (shown as the header) included. */
export const CSV_ROW_LIMIT = 1000;

export interface CsvTable {
  /** The first rows, each as many cells as it has (the table pads short ones). */
  rows: string[][];
  /** The most cells in a row shown. */
  columns: number;
  /** Rows not shown. */
  hidden: number;
}

/**
 * Parses `text` into at most `limit` rows. `tab` reads it as TSV (else the delimiter is
 * detected); `cut` says the text stops short of the file's end (the 2 MB cap), so its last row
 * may be partial and is left out. Blank lines are not rows.
 */
export function parseCsv(
  text: string,
  { tab = false, cut = false }: { tab?: boolean; cut?: boolean } = {},
  limit = CSV_ROW_LIMIT,
): CsvTable {
  const rows: string[][] = [];
  let total = 0;
  Papa.parse<string[]>(text, {
    delimiter: tab ? '\t' : '',
    skipEmptyLines: true,
    // One row at a time: a 2 MB file of short rows never becomes an array of them all.
    step: ({ data }) => {
      total += 1;
      if (rows.length <= limit) rows.push(data);
    },
  });
  if (cut && total > 0) {
    if (rows.length === total) rows.pop();
    total -= 1;
  }
  rows.splice(limit);
  return {
    rows,
    columns: rows.reduce((most, r) => Math.max(most, r.length), 0),
    hidden: total - rows.length,
  };
}
