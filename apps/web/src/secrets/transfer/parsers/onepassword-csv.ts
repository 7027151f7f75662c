// 1Password's CSV export. 1Password 8 writes `Title,Url,Username,Password,OTPAuth,Favorite,
// Archived,Tags,Notes` (logins and passwords only); 1Password 7 let the user pick the columns,
// named as below. Each row is one login; its tags are kept as a custom field.
import type { ParseResult } from '../errors.ts';
import { common, type TransferItem } from '../model.ts';
import { readCsv, titleFor, type CsvRow } from '../read.ts';

const first = (row: CsvRow, names: string[]) =>
  names.map((n) => row.get(n)).find((v) => v !== '') ?? '';

export function parseOnePasswordCsv(text: string): ParseResult {
  const { rows } = readCsv(text, '1Password CSV');
  const items = rows.map((r): TransferItem => {
    const url = first(r, ['url', 'urls', 'website', 'login url']);
    const totp = first(r, ['otpauth', 'one-time password', 'totp']);
    const tags = r.get('tags');
    return {
      ...common(titleFor(first(r, ['title', 'name']), url)),
      notes: first(r, ['notes', 'notesplain']),
      urls: url === '' ? [] : [url],
      ...(totp !== '' && { totp }),
      customFields: tags === '' ? [] : [{ name: 'Tags', value: tags, hidden: false }],
      type: 'login',
      login: {
        username: first(r, ['username', 'login username']),
        password: first(r, ['password', 'login password']),
      },
    };
  });
  return { format: '1password-csv', items, skipped: [] };
}
