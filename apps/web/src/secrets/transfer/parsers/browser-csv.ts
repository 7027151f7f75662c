// The password CSV files browsers export. Chrome (and Edge, Brave): `name,url,username,password`
// and, since 2023, `note`. Firefox: `url,username,password,httpRealm,formActionOrigin,guid,
// timeCreated,timeLastUsed,timePasswordChanged`. Safari (and Apple Passwords):
// `Title,URL,Username,Password,Notes,OTPAuth`. Each row is one login.
import type { ParseResult } from '../errors.ts';
import { common, type TransferItem } from '../model.ts';
import { readCsv, titleFor, type CsvRow } from '../read.ts';

function login(row: CsvRow, title: string, notes: string, totp: string): TransferItem {
  const url = row.get('url');
  return {
    ...common(titleFor(title, url)),
    notes,
    urls: url === '' ? [] : [url],
    ...(totp !== '' && { totp }),
    type: 'login',
    login: { username: row.get('username'), password: row.get('password') },
  };
}

export function parseChromeCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'Chrome CSV');
  const items = rows.map((r) => login(r, r.get('name'), r.get('note'), ''));
  return { format: 'chrome-csv', items, skipped: [] };
}

export function parseFirefoxCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'Firefox CSV');
  const items = rows.map((r) => {
    const item = login(r, '', '', '');
    const realm = r.get('httpRealm');
    if (realm !== '') item.customFields.push({ name: 'HTTP realm', value: realm, hidden: false });
    return item;
  });
  return { format: 'firefox-csv', items, skipped: [] };
}

export function parseSafariCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'Safari CSV');
  const items = rows.map((r) => login(r, r.get('title'), r.get('notes'), r.get('otpauth')));
  return { format: 'safari-csv', items, skipped: [] };
}
