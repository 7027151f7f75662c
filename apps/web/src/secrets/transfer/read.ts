// Reading a file's text as CSV (papaparse) or JSON with positions a user can find: every error
// names the line of the CSV row or the JSON text, or the entry a schema check failed on.
import Papa from 'papaparse';
import type { z } from 'zod';
import { readZip, ZipLimitError, type ZipContents } from '../../archives/zip.ts';
import { unescapeFormula } from './csvFormula.ts';
import { i18n } from '../../i18n/i18n.ts';
import { entryName, ImportError, malformed } from './errors.ts';

/** A file's kind in messages ("Chrome CSV", "import"), in the language shown. */
const named = (label: string): string => i18n.t(label);

/** UTF-8 text of a file, without a byte-order mark; invalid UTF-8 is refused, not mangled. */
export function decodeText(bytes: Uint8Array, label: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw malformed(i18n.t('This {{label}} file is not UTF-8 text.', { label: named(label) }));
  }
}

/**
 * The entries of an import's ZIP archive that `select` picks, within the caps of
 * [Note: archive caps] (archives/zip.ts): an archive over one is TOO_LARGE, with the message
 * naming the cap; one that cannot be read is MALFORMED with `unreadable`.
 */
export function readImportZip(
  bytes: Uint8Array,
  unreadable: string,
  select: (name: string) => boolean = () => false,
): ZipContents {
  try {
    return readZip(bytes, { select });
  } catch (e) {
    if (e instanceof ZipLimitError) throw new ImportError('TOO_LARGE', e.message);
    throw malformed(unreadable);
  }
}

export interface CsvRow {
  /** The line of the file the row starts on, 1-based (a quoted field may span several). */
  line: number;
  /** The value under a column, '' when the column is absent; names are matched case-blind. */
  get(column: string): string;
  /** Every column with a value, by its name as the header wrote it. */
  entries: [string, string][];
  /** Every cell of the row in order, empty ones and those past the header's last included. */
  cells: readonly string[];
  /**
   * The values no parser field takes: columns not in `used` (case-blind) and cells past the
   * header's last column ("Column 12"), so that nothing of the row is dropped in silence.
   */
  rest(used: readonly string[]): [string, string][];
}

export interface ReadCsvOptions {
  /**
   * A CSV this app wrote: values are kept exactly as written (no line-end normalising) and the
   * export's formula escape is undone ([Note: csv formula escape] in csvFormula.ts).
   */
  ownExport?: boolean;
  /**
   * Lines put before the file's own (a header a parser adds to a header-less format): subtracted
   * from the line numbers of rows and errors, so they name the file's lines.
   */
  linesAdded?: number;
}

/** The row separator of a CSV file: the end of its header line (which holds no quotes). */
const headerNewline = (text: string) =>
  /\r\n|\n|\r/.exec(text)?.[0] as '\r\n' | '\n' | '\r' | undefined;

/**
 * Reads CSV with a header row, as tolerant as the exporting products: a byte-order mark, CRLF or
 * LF, quoted newlines, a row with fewer cells than the header (the missing trailing ones are
 * empty) or more (kept for {@link CsvRow.rest}). Only an unclosed quote refuses it, naming the line.
 */
export function readCsv(
  text: string,
  label: string,
  options: ReadCsvOptions = {},
): { header: string[]; rows: CsvRow[] } {
  const own = options.ownExport === true;
  // Papaparse guesses the row separator from the first 1 KB, which values holding \r can fool.
  const newline = own ? headerNewline(text) : undefined;
  const raw: { data: string[]; line: number }[] = [];
  let failure: string | undefined;
  let cursor = 0;
  let line = 1 - (options.linesAdded ?? 0);
  const lineAt = (end: number) => {
    // Blank lines are skipped by papaparse; a row starts at the first character after them.
    let start = cursor;
    while (start < end && (text[start] === '\n' || text[start] === '\r')) start++;
    for (let i = cursor; i < start; i++) if (text[i] === '\n') line++;
    const at = line;
    for (let i = start; i < end; i++) if (text[i] === '\n') line++;
    cursor = end;
    return at;
  };
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: 'greedy',
    ...(newline && { newline }),
    step: (result, parser) => {
      const at = lineAt(result.meta.cursor);
      // Papaparse's guess of the delimiter failing only means it kept the comma.
      const error = result.errors.find((e) => e.code !== 'UndetectableDelimiter');
      if (error) {
        failure =
          error.code === 'MissingQuotes'
            ? i18n.t(
                'Line {{line}} of this {{label}} file has a quoted field that is never closed.',
                { line: at, label: named(label) },
              )
            : i18n.t('Line {{line}} of this {{label}} file cannot be read: {{reason}}.', {
                line: at,
                label: named(label),
                reason: error.message,
              });
        parser.abort();
        return;
      }
      // Multi-line values keep \n line ends, whatever the file's (Windows exports use \r\n);
      // ours keep what they were exported with.
      const data = own
        ? result.data.map(unescapeFormula)
        : result.data.map((v) => v.replace(/\r\n?/g, '\n'));
      raw.push({ data, line: at });
    },
  });
  if (failure !== undefined) throw malformed(failure);
  const first = raw.shift();
  if (!first) throw malformed(i18n.t('This {{label}} file is empty.', { label: named(label) }));
  const header = first.data.map((h) => h.trim());
  const index = new Map(header.map((h, i) => [h.toLowerCase(), i]));
  const rows = raw.map(({ data, line: at }): CsvRow => {
    const extra = data
      .slice(header.length)
      .map((v, i): [string, string] => [`Column ${header.length + i + 1}`, v])
      .filter(([, v]) => v.trim() !== '');
    const entries = header.map((h, i): [string, string] => [h, data[i] ?? '']).filter(([, v]) => v);
    return {
      line: at,
      cells: data,
      get: (column) => {
        const i = index.get(column.toLowerCase());
        return i === undefined ? '' : (data[i] ?? '');
      },
      entries,
      rest: (used) => {
        const taken = new Set(used.map((u) => u.toLowerCase()));
        return [...entries.filter(([h]) => !taken.has(h.toLowerCase())), ...extra];
      },
    };
  });
  return { header, rows };
}

/** The lowercase column names of a CSV file's header, for format detection. */
export function csvHeader(text: string): string[] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const parsed = Papa.parse<string[]>(firstLine, { header: false });
  return (parsed.data[0] ?? []).map((h) => h.trim().toLowerCase());
}

/** JSON.parse whose error names the line and column of the fault. */
export function readJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const message = e instanceof Error ? e.message : '';
    // Firefox names the line and column itself; V8 names the position.
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    if (lineCol) {
      throw malformed(
        i18n.t(
          'This {{label}} file is not valid JSON: line {{line}}, column {{column}} cannot be read.',
          { label: named(label), line: lineCol[1], column: lineCol[2] },
        ),
      );
    }
    const position = /position (\d+)/.exec(message);
    if (!position) {
      throw malformed(i18n.t('This {{label}} file is not valid JSON.', { label: named(label) }));
    }
    const before = text.slice(0, Number(position[1]));
    const lineNo = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    throw malformed(
      i18n.t(
        'This {{label}} file is not valid JSON: line {{line}}, column {{column}} cannot be read.',
        { label: named(label), line: lineNo, column },
      ),
    );
  }
}

/**
 * Checks `data` against a zod schema; a failure names the entry (the item of the array at
 * `listKey`, with its title) and the field at fault.
 */
export function checkSchema<T>(
  schema: z.ZodType<T>,
  data: unknown,
  label: string,
  listKeys: readonly string[],
  titleOf: (entry: unknown) => unknown,
): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  // The innermost list the path walks into names the entry.
  let where = '';
  for (let i = path.length - 2; i >= 0; i--) {
    const key = path[i];
    const idx = path[i + 1];
    if (typeof key === 'string' && listKeys.includes(key) && typeof idx === 'number') {
      let node: unknown = data;
      for (const p of path.slice(0, i + 2)) {
        node = (node as Record<PropertyKey, unknown> | undefined)?.[p];
      }
      const field = path.slice(i + 2).join('.');
      const entry = entryName(idx, titleOf(node));
      where = field ? i18n.t('{{entry}}, field "{{field}}"', { entry, field }) : entry;
      break;
    }
  }
  if (where === '') {
    where = path.length
      ? i18n.t('field "{{field}}"', { field: path.join('.') })
      : i18n.t('the top level');
  }
  throw malformed(
    i18n.t('This {{label}} file cannot be read at {{where}}: {{issue}}.', {
      label: named(label),
      where,
      issue: issue?.message ?? 'invalid',
    }),
  );
}

/** Non-empty strings only, trimmed of nothing (values are kept exactly as the source had them). */
export const nonEmpty = (values: (string | null | undefined)[]): string[] =>
  values.filter((v): v is string => typeof v === 'string' && v !== '');

/** A title for an entry that has none: the host of its URL, else "Untitled". */
export function titleFor(title: string, url: string): string {
  if (title.trim() !== '') return title;
  try {
    return new URL(url).hostname || url || 'Untitled';
  } catch {
    return url || 'Untitled';
  }
}
