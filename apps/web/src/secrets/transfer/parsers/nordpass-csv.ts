// NordPass's CSV export (Settings > Export items): one file for every item type,
// `name,url,additional_urls,username,password,note,cardholdername,cardnumber,cvc,pin,expirydate,
// zipcode,folder,full_name,phone_number,email,address1,address2,city,country,state,type,
// custom_fields` (older exports lack `additional_urls` and `custom_fields`). `type` is `password`
// (a login), `credit_card`, `note`, `identity` or `folder` (a row naming a folder, not an item);
// `additional_urls` a JSON list, `custom_fields` a JSON list of `{label, type, value}`. A value in a
// column its type does not use becomes a custom field, so nothing is dropped in silence (issue 32).
import { z } from 'zod';
import { i18n } from '../../../i18n/i18n.ts';
import type { ParseResult, Skipped } from '../errors.ts';
import { common, emptyCard, emptyIdentity, type CustomField, type TransferItem } from '../model.ts';
import { readCsv, titleFor, type CsvRow } from '../read.ts';
import { text } from './tolerant.ts';

const LABEL = 'NordPass CSV';
const SHARED = ['name', 'note', 'folder', 'type', 'custom_fields'];

const customFieldList = z.array(z.object({ label: text, type: text, value: text }).nullable());

/** The `custom_fields` JSON list; a value that is not one is kept whole as a custom field. */
export function customFields(value: string): CustomField[] {
  if (value.trim() === '') return [];
  try {
    return customFieldList
      .parse(JSON.parse(value))
      .filter((f) => f !== null)
      .filter((f) => (f.label ?? '') !== '' || (f.value ?? '') !== '')
      .map((f) => ({
        name: f.label ?? '',
        value: f.value ?? '',
        hidden: f.type === 'hidden' || f.type === 'password',
      }));
  } catch {
    return [{ name: 'custom_fields', value, hidden: false }];
  }
}

/** `additional_urls`: a JSON list, or URLs between commas or on lines of their own. */
export function additionalUrls(value: string): string[] {
  if (value.trim() === '') return [];
  try {
    const list: unknown = JSON.parse(value);
    if (Array.isArray(list)) {
      return list.filter((u): u is string => typeof u === 'string' && u.trim() !== '');
    }
  } catch {
    // Not JSON: read it as a plain list.
  }
  return value
    .split(/[,\n]/)
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

/** NordPass writes a card's expiry as `MM/YY`; `MM/YYYY` is read too. */
export function nordExpiry(value: string): { expMonth: string; expYear: string } | undefined {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  const month = Number(m?.[1]);
  if (!m || month < 1 || month > 12) return undefined;
  const year = m[2] ?? '';
  return { expMonth: String(month), expYear: year.length === 2 ? `20${year}` : year };
}

/** A full name split as its last word and the words before it. */
function names(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/);
  if (words.length < 2) return { firstName: fullName.trim(), lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] ?? '' };
}

const rest = (row: CsvRow, used: string[]): CustomField[] =>
  row.rest([...SHARED, ...used]).map(([name, value]) => ({
    name,
    value,
    hidden: ['password', 'cvc', 'pin'].includes(name.toLowerCase()),
  }));

function item(row: CsvRow, type: string): TransferItem | undefined {
  const url = row.get('url');
  const base = {
    ...common(titleFor(row.get('name'), url)),
    notes: row.get('note'),
    ...(row.get('folder') !== '' && { folder: row.get('folder') }),
  };
  const fields = customFields(row.get('custom_fields'));
  switch (type) {
    case 'password':
      return {
        ...base,
        urls: [...(url === '' ? [] : [url]), ...additionalUrls(row.get('additional_urls'))],
        customFields: [...fields, ...rest(row, ['url', 'additional_urls', 'username', 'password'])],
        type: 'login',
        login: { username: row.get('username'), password: row.get('password') },
      };
    case 'credit_card': {
      const card = emptyCard();
      card.cardholderName = row.get('cardholdername');
      card.number = row.get('cardnumber');
      card.code = row.get('cvc');
      const exp = nordExpiry(row.get('expirydate'));
      if (exp) Object.assign(card, exp);
      const used = ['cardholdername', 'cardnumber', 'cvc', ...(exp ? ['expirydate'] : [])];
      return { ...base, customFields: [...fields, ...rest(row, used)], type: 'card', card };
    }
    case 'identity': {
      const identity = {
        ...emptyIdentity(),
        ...names(row.get('full_name')),
        email: row.get('email'),
        phone: row.get('phone_number'),
        address1: row.get('address1'),
        address2: row.get('address2'),
        city: row.get('city'),
        state: row.get('state'),
        postalCode: row.get('zipcode'),
        country: row.get('country'),
      };
      const used = ['full_name', 'email', 'phone_number', 'address1', 'address2', 'city'];
      const more = ['state', 'zipcode', 'country'];
      return {
        ...base,
        customFields: [...fields, ...rest(row, [...used, ...more])],
        type: 'identity',
        identity,
      };
    }
    case 'folder':
      return undefined;
    default: {
      // `note`, or a type a newer NordPass writes: a note keeping every other value.
      const kind =
        type === 'note' || type === '' ? [] : [{ name: 'Item type', value: type, hidden: false }];
      return { ...base, customFields: [...kind, ...fields, ...rest(row, [])], type: 'note' };
    }
  }
}

export function parseNordPassCsv(text: string): ParseResult {
  const { rows } = readCsv(text, LABEL);
  const items: TransferItem[] = [];
  const folderRows: CsvRow[] = [];
  for (const row of rows) {
    const given = row.get('type').trim().toLowerCase();
    // A row cut short before its type: a login if it has a login's values.
    const loginLike = ['url', 'username', 'password'].some((c) => row.get(c) !== '');
    const type = given === '' && loginLike ? 'password' : given;
    const it = item(row, type);
    if (it) items.push(it);
    else folderRows.push(row);
  }
  // A folder row only names a folder; one no item sits in is not created.
  const used = new Set(items.map((i) => i.folder));
  const skipped: Skipped[] = folderRows
    .filter((r) => !used.has(r.get('name')))
    .map((r) => ({
      entry: i18n.t('line {{line}} ("{{title}}")', { line: r.line, title: r.get('name') }),
      reason: i18n.t('An empty folder is not imported'),
    }));
  return { format: 'nordpass-csv', items, skipped };
}
