// Keeper's CSV export (Settings > Export > CSV): no header row; each row is `Folder,Title,Login,
// Password,Website Address,Notes,Shared Folder`, then the record's custom fields as name, value
// pairs; the pair named `TFC:Keeper` holds the two-factor code's otpauth URI. Folders have `\`
// between levels. A row is a login, or a note when it has no login, password or address. Having no
// header, it is recognised by its file name or its TFC:Keeper pair (detect.ts).
import type { ParseResult } from '../errors.ts';
import { common, type CustomField, type TransferItem } from '../model.ts';
import { readCsv, titleFor } from '../read.ts';

const HEADER = 'Folder,Title,Login,Password,Website Address,Notes,Shared Folder';
const FIRST_PAIR = 8; // 1-based column of the first custom field's name
const TOTP_NAME = 'TFC:Keeper';

export function parseKeeperCsv(text: string): ParseResult {
  // A header is put before the first record (its line not counted, so errors name the file's
  // lines). It ends with the file's own line end, so that the rows' separator is guessed right.
  const newline = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  const { rows } = readCsv(`${HEADER}${newline}${text.replace(/^\uFEFF/, '')}`, 'Keeper CSV', {
    linesAdded: 1,
  });
  const items = rows.map((r): TransferItem => {
    const cells = new Map(
      r
        .rest([])
        .map(([name, value]) => [Number(/^Column (\d+)$/.exec(name)?.[1]), value] as const)
        .filter(([n]) => n >= FIRST_PAIR),
    );
    const last = Math.max(0, ...cells.keys());
    const customFields: CustomField[] = [];
    let totp = '';
    for (let n = FIRST_PAIR; n <= last; n += 2) {
      const name = cells.get(n) ?? '';
      const value = cells.get(n + 1) ?? '';
      if (name === TOTP_NAME && totp === '') totp = value;
      else if (name !== '' || value !== '') customFields.push({ name, value, hidden: false });
    }
    const url = r.get('website address');
    const folderPath = (v: string) => v.replace(/\\/g, '/');
    const folder = folderPath(r.get('folder'));
    const shared = folderPath(r.get('shared folder'));
    if (folder !== '' && shared !== '') {
      customFields.push({ name: 'Shared folder', value: shared, hidden: false });
    }
    const where = folder || shared;
    const base = {
      ...common(titleFor(r.get('title'), url)),
      notes: r.get('notes'),
      urls: url === '' ? [] : [url],
      ...(totp !== '' && { totp }),
      customFields,
      ...(where !== '' && { folder: where }),
    };
    const login = { username: r.get('login'), password: r.get('password') };
    if (url === '' && login.username === '' && login.password === '') {
      return { ...base, type: 'note' };
    }
    return { ...base, type: 'login', login };
  });
  return { format: 'keeper-csv', items, skipped: [] };
}
