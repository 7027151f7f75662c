// 1Password's CSV export. 1Password 8 writes `Title,Url,Username,Password,OTPAuth,Favorite,
// Archived,Tags,Notes` (logins and passwords only); 1Password 7 let the user pick the columns,
// named as below. Each row is one login; its tags, and any column not named here, are kept as
// custom fields; the favourite and archived marks are named in the preview (issue 32).
import { i18n } from '../../../i18n/i18n.ts';
import type { ParseResult, Skipped } from '../errors.ts';
import { FAVORITE, isSet } from './bitwarden-csv.ts';
import { common, type TransferItem } from '../model.ts';
import { readCsv, titleFor, type CsvRow } from '../read.ts';

const first = (row: CsvRow, names: string[]) =>
  names.map((n) => row.get(n)).find((v) => v !== '') ?? '';

const URL_COLUMNS = ['url', 'urls', 'website', 'login url'];
const TOTP_COLUMNS = ['otpauth', 'one-time password', 'totp'];
const TITLE = ['title', 'name'];
const NOTES = ['notes', 'notesplain'];
const USERNAME = ['username', 'login username'];
const PASSWORD = ['password', 'login password'];
const USED = [
  ...URL_COLUMNS,
  ...TOTP_COLUMNS,
  ...TITLE,
  ...NOTES,
  ...USERNAME,
  ...PASSWORD,
  'tags',
  'favorite',
  'archived',
];

export function parseOnePasswordCsv(text: string): ParseResult {
  const { rows } = readCsv(text, '1Password CSV');
  const skipped: Skipped[] = [];
  const items = rows.map((r): TransferItem => {
    const url = first(r, URL_COLUMNS);
    const totp = first(r, TOTP_COLUMNS);
    const tags = r.get('tags');
    const title = titleFor(first(r, TITLE), url);
    const entry = i18n.t('line {{line}} ("{{title}}")', { line: r.line, title: title });
    if (isSet(r.get('favorite'))) skipped.push({ entry, reason: i18n.t(FAVORITE) });
    if (isSet(r.get('archived'))) {
      skipped.push({ entry, reason: i18n.t('The archived mark is not imported (the item is)') });
    }
    // A second URL column that `first` did not take is kept with the rest.
    const taken = USED.filter((c) => !(URL_COLUMNS.includes(c) && r.get(c) !== url));
    const rest = r.rest(taken).map(([name, value]) => ({ name, value, hidden: false }));
    return {
      ...common(title),
      notes: first(r, NOTES),
      urls: url === '' ? [] : [url],
      ...(totp !== '' && { totp }),
      customFields: [
        ...(tags === '' ? [] : [{ name: 'Tags', value: tags, hidden: false }]),
        ...rest,
      ],
      type: 'login',
      login: { username: first(r, USERNAME), password: first(r, PASSWORD) },
    };
  });
  return { format: '1password-csv', items, skipped };
}
