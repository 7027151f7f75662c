// RoboForm's CSV export (Options > Account & Data > Export): `Name,Url,MatchUrl,Login,Pwd,Note,
// Folder,RfFieldsV2` (older exports `Rf_fields`). A row is a login, or a safenote when it has no
// URL, login or password. `Folder` starts with "/" ("/Work/Mail"). Each of the login form's other
// fields is one `name,id,?,type,value` entry, the first in `RfFieldsV2` and the rest in the cells
// after it; each becomes a custom field (a `pwd` one hidden) unless it repeats the login or the
// password (RoboForm names those `User ID$` and `Password$`). Nothing is dropped in silence
// (issue 32).
import Papa from 'papaparse';
import type { ParseResult } from '../errors.ts';
import { common, type CustomField, type TransferItem } from '../model.ts';
import { readCsv, titleFor } from '../read.ts';

const COLUMNS = ['name', 'url', 'matchurl', 'login', 'pwd', 'note', 'folder', 'rffieldsv2'];
const FIELD_COLUMNS = ['rffieldsv2', 'rf_fields'];

/** One `name,id,?,type,value` entry of RfFieldsV2 (the value may itself hold commas). */
export function formField(entry: string): CustomField | undefined {
  if (entry.trim() === '') return undefined;
  const parts = Papa.parse<string[]>(entry).data[0] ?? [];
  if (parts.length < 5) return { name: 'RoboForm field', value: entry, hidden: false };
  const [name = '', , , type = '', ...value] = parts;
  return { name: name.replace(/\$$/, ''), value: value.join(','), hidden: type === 'pwd' };
}

export function parseRoboFormCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'RoboForm CSV');
  const items = rows.map((r): TransferItem => {
    const url = r.get('url');
    const match = r.get('matchurl');
    const urls = [url, match].filter((u, i, all) => u !== '' && all.indexOf(u) === i);
    const username = r.get('login');
    const password = r.get('pwd');
    const folder = r.get('folder').replace(/^\/+/, '');
    // RfFieldsV2's later entries arrive as cells past the header.
    const rest = r.rest([...COLUMNS, ...FIELD_COLUMNS]);
    const entries = [
      ...FIELD_COLUMNS.map((c) => r.get(c)),
      ...rest.filter(([name]) => /^Column \d+$/.test(name)).map(([, v]) => v),
    ];
    const customFields = [
      ...entries
        .map(formField)
        .filter((f): f is CustomField => f !== undefined)
        .filter((f) => f.value !== '' && f.value !== username && f.value !== password),
      ...rest
        .filter(([name]) => !/^Column \d+$/.test(name))
        .map(([name, value]) => ({ name, value, hidden: false })),
    ];
    const base = {
      ...common(titleFor(r.get('name'), urls[0] ?? '')),
      notes: r.get('note'),
      urls,
      customFields,
      ...(folder !== '' && { folder }),
    };
    if (urls.length === 0 && username === '' && password === '') return { ...base, type: 'note' };
    return { ...base, type: 'login', login: { username, password } };
  });
  return { format: 'roboform-csv', items, skipped: [] };
}
