// Bitwarden's CSV export (help article "Condition a Bitwarden .csv or .json"): individual
// `folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,
// login_totp`, organization `collections,...` in place of folder and favorite. Only logins and
// secure notes exist in it; `fields` holds "name: value" lines, `login_uri` comma-separated URLs.
// Our export adds a `sealvault` column ([Note: sealvault extension] in bitwarden-json.ts: JSON
// { type, hidden }) that Bitwarden's importer, which reads columns by name, ignores.
import Papa from 'papaparse';
import { z } from 'zod';
import { i18n, msg } from '../../../i18n/i18n.ts';
import { malformed, type ParseResult, type Skipped } from '../errors.ts';
import { common, type CustomField, type TransferItem } from '../model.ts';
import { escapeFormula } from '../csvFormula.ts';
import { csvHeader, readCsv, titleFor } from '../read.ts';

const LABEL = 'Bitwarden CSV';
export const BITWARDEN_CSV_COLUMNS = [
  'folder',
  'favorite',
  'type',
  'name',
  'notes',
  'fields',
  'reprompt',
  'login_uri',
  'login_username',
  'login_password',
  'login_totp',
] as const;

const extension = z.object({
  type: z.enum(['text', 'apikey']).optional(),
  hidden: z.array(z.string()).optional(),
});

/** "name: value" lines; a line without ": " continues the previous value (a multi-line value). */
export function parseFieldLines(text: string, hidden: readonly string[] = []): CustomField[] {
  const fields: CustomField[] = [];
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(': ');
    const last = fields[fields.length - 1];
    if (at < 0 && last) {
      last.value += `\n${line}`;
    } else if (at < 0) {
      if (line.trim() !== '') fields.push({ name: line, value: '', hidden: false });
    } else {
      const name = line.slice(0, at);
      fields.push({ name, value: line.slice(at + 2), hidden: hidden.includes(name) });
    }
  }
  return fields;
}

/** A flag column that is on: Bitwarden writes 1, others true. */
export const isSet = (v: string): boolean => /^(1|true|yes)$/i.test(v.trim());
export const FAVORITE = msg('The favourite mark is not imported');
export const REPROMPT = msg('The master password re-prompt is not imported');

/** The comma-separated URLs of `login_uri` (a URL holding a comma arrives quoted). */
const splitUris = (value: string): string[] =>
  value === '' ? [] : (Papa.parse<string[]>(value).data[0] ?? []).filter((u) => u !== '');

export function parseBitwardenCsv(text: string): ParseResult {
  // Our own export (its sealvault column) is read back exactly ([Note: csv formula escape]).
  const ownExport = csvHeader(text).includes('sealvault');
  const { rows } = readCsv(text, LABEL, { ownExport });
  const items: TransferItem[] = [];
  const skipped: Skipped[] = [];
  for (const row of rows) {
    let ext: z.infer<typeof extension> = {};
    if (row.get('sealvault') !== '') {
      try {
        ext = extension.parse(JSON.parse(row.get('sealvault')));
      } catch {
        throw malformed(
          i18n.t('Line {{line}} of this {{label}} file has an unreadable sealvault value.', {
            line: row.line,
            label: LABEL,
          }),
        );
      }
    }
    const folder = row.get('folder') || row.get('collections').split(',')[0] || undefined;
    const urls = splitUris(row.get('login_uri'));
    const title = titleFor(row.get('name'), urls[0] ?? '');
    const entry = i18n.t('line {{line}} ("{{title}}")', { line: row.line, title: title });
    // Columns Bitwarden did not write (a newer version's, or a file the user picked the format
    // for) become custom fields; the two flags we have no place for are named in the preview.
    const other = row.rest([...BITWARDEN_CSV_COLUMNS, 'collections', 'sealvault']);
    if (isSet(row.get('favorite'))) skipped.push({ entry, reason: i18n.t(FAVORITE) });
    if (isSet(row.get('reprompt'))) skipped.push({ entry, reason: i18n.t(REPROMPT) });
    const base = {
      ...common(title),
      notes: row.get('notes'),
      customFields: [
        ...parseFieldLines(row.get('fields'), ext.hidden),
        ...other.map(([name, value]) => ({ name, value, hidden: false })),
      ],
      ...(folder !== undefined && { folder }),
    };
    const type = row.get('type').trim().toLowerCase();
    if (type === 'login') {
      const totp = row.get('login_totp');
      const username = row.get('login_username');
      const password = row.get('login_password');
      const rest = { ...base, urls, ...(totp !== '' && { totp }) };
      items.push(
        ext.type === 'apikey'
          ? { ...rest, type: 'apikey', apikey: { username, key: password } }
          : { ...rest, type: 'login', login: { username, password } },
      );
    } else if (type === 'note') {
      items.push({ ...base, type: ext.type === 'text' ? 'text' : 'note' });
    } else {
      throw malformed(
        i18n.t(
          'Line {{line}} of this {{label}} file has the type "{{type}}"; Bitwarden\'s CSV has only "login" and "note".',
          { line: row.line, label: LABEL, type: row.get('type') },
        ),
      );
    }
  }
  return { format: 'bitwarden-csv', items, skipped };
}

/**
 * A Bitwarden CSV export of the logins, API keys (as logins), notes and plain texts (as notes) of
 * `items`. Cards, identities and SSH keys have no place in Bitwarden's CSV (it leaves them out of
 * its own): they come back in `omitted`, for the UI to name. Everything else reads back the same,
 * but a custom field's value that is itself a "name: value" line. A cell a spreadsheet would run
 * as a formula is written with a leading quote, which our import removes again.
 */
export function exportBitwardenCsv(items: readonly TransferItem[]): {
  csv: string;
  omitted: TransferItem[];
} {
  const omitted: TransferItem[] = [];
  const rows: string[][] = [];
  for (const item of items) {
    const hidden = item.customFields.filter((f) => f.hidden).map((f) => f.name);
    const extType = item.type === 'text' || item.type === 'apikey' ? item.type : undefined;
    const ext = {
      ...(extType && { type: extType }),
      ...(hidden.length > 0 && { hidden }),
    };
    const common = {
      folder: item.folder ?? '',
      favorite: '',
      name: item.title,
      notes: item.notes,
      fields: item.customFields.map((f) => `${f.name}: ${f.value}`).join('\n'),
      reprompt: '0',
      sealvault: Object.keys(ext).length ? JSON.stringify(ext) : '',
    };
    const login = (username: string, password: string) => ({
      ...common,
      type: 'login',
      login_uri: Papa.unparse([item.urls], { newline: '' }),
      login_username: username,
      login_password: password,
      login_totp: item.totp ?? '',
    });
    const note = { ...common, type: 'note', login_uri: '', login_username: '', login_password: '' };
    const row: Record<string, string> | undefined =
      item.type === 'login'
        ? login(item.login.username, item.login.password)
        : item.type === 'apikey'
          ? login(item.apikey.username, item.apikey.key)
          : item.type === 'note' || item.type === 'text'
            ? { ...note, login_totp: '' }
            : undefined;
    if (!row) {
      omitted.push(item);
      continue;
    }
    // A spreadsheet must not run a cell ([Note: csv formula escape]).
    rows.push([...BITWARDEN_CSV_COLUMNS, 'sealvault'].map((c) => escapeFormula(row[c] ?? '')));
  }
  const csv = Papa.unparse({ fields: [...BITWARDEN_CSV_COLUMNS, 'sealvault'], data: rows });
  return { csv, omitted };
}
