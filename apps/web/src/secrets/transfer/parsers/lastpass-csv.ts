// LastPass's CSV export (Advanced Options > Export): `url,username,password,totp,extra,name,
// grouping,fav` (older exports lack `totp`). A row whose url is `http://sn` is a secure note: its
// `extra` is the note's text, or for a typed note `NoteType:Credit Card` followed by `Key:Value`
// lines, the last of them `Notes:` whose value runs to the end. Credit cards become cards,
// addresses identities; every other typed note (server, database, passport...) a note whose
// values are custom fields. `grouping` is the folder (`\` between levels); `fav` is named in the
// preview, since we have no favourites (issue 32).
import { i18n } from '../../../i18n/i18n.ts';
import type { ParseResult, Skipped } from '../errors.ts';
import { FAVORITE, isSet } from './bitwarden-csv.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  type CardFields,
  type CustomField,
  type IdentityFields,
  type TransferItem,
} from '../model.ts';
import { readCsv, titleFor } from '../read.ts';

const COLUMNS = ['url', 'username', 'password', 'totp', 'extra', 'name', 'grouping', 'fav'];
const SECURE_NOTE_URL = 'http://sn';

/** The `Key:Value` lines of a typed note, in order; `Notes:` takes the rest of the text. */
export function noteValues(extra: string): [string, string][] {
  const values: [string, string][] = [];
  const lines = extra.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const at = line.indexOf(':');
    const last = values[values.length - 1];
    if (at < 0) {
      if (last) last[1] += `\n${line}`;
      else if (line.trim() !== '') values.push([line, '']);
      continue;
    }
    const key = line.slice(0, at);
    if (key === 'Notes') {
      values.push([key, [line.slice(at + 1), ...lines.slice(i + 1)].join('\n')]);
      break;
    }
    values.push([key, line.slice(at + 1)]);
  }
  return values;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** LastPass writes an expiry as "June,2029"; a number ("06/2029") is read too. */
export function expiry(value: string): { expMonth: string; expYear: string } | undefined {
  const m = /^\s*([A-Za-z]+|\d{1,2})\s*[,/-]\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!m) return undefined;
  const [, monthText = '', yearText = ''] = m;
  const month = /^\d+$/.test(monthText)
    ? Number(monthText)
    : MONTHS.indexOf(monthText.toLowerCase()) + 1;
  if (month < 1 || month > 12) return undefined;
  return { expMonth: String(month), expYear: yearText.length === 2 ? `20${yearText}` : yearText };
}

/** A phone LastPass stores as JSON (`{"num":"555","ext":"1","cc3l":"USA"}`), as text. */
function phone(value: string): string {
  if (!value.startsWith('{')) return value;
  try {
    const p = JSON.parse(value) as { num?: unknown; ext?: unknown };
    if (typeof p.num !== 'string') return value;
    return typeof p.ext === 'string' && p.ext !== '' ? `${p.num} ext. ${p.ext}` : p.num;
  } catch {
    return value;
  }
}

const CARD_KEYS: Record<string, keyof CardFields> = {
  'Name on Card': 'cardholderName',
  Type: 'brand',
  Number: 'number',
  'Security Code': 'code',
};

const IDENTITY_KEYS: Record<string, keyof IdentityFields> = {
  Title: 'title',
  'First Name': 'firstName',
  'Middle Name': 'middleName',
  'Last Name': 'lastName',
  Username: 'username',
  Company: 'company',
  'Address 1': 'address1',
  'Address 2': 'address2',
  'Address 3': 'address3',
  'City / Town': 'city',
  State: 'state',
  'Zip / Postal Code': 'postalCode',
  Country: 'country',
  'Email Address': 'email',
  Phone: 'phone',
};

/** Values a typed note holds that are not data: its type and the language of its form. */
const META_KEYS = new Set(['NoteType', 'Language']);

function secureNote(extra: string, base: ReturnType<typeof common>): TransferItem {
  const values = noteValues(extra);
  const noteType = values.find(([k]) => k === 'NoteType')?.[1].trim();
  // A plain note's text may hold colons: it is the note, as it is.
  if (noteType === undefined) return { ...base, notes: extra, type: 'note' };
  const customFields: CustomField[] = [];
  const card = emptyCard();
  const identity = emptyIdentity();
  let notes = '';
  for (const [key, value] of values) {
    if (META_KEYS.has(key) || value === '') continue;
    if (key === 'Notes') {
      notes = value;
    } else if (noteType === 'Credit Card' && key in CARD_KEYS) {
      card[CARD_KEYS[key]!] = value;
    } else if (noteType === 'Credit Card' && key === 'Expiration Date' && expiry(value)) {
      Object.assign(card, expiry(value));
    } else if (noteType === 'Address' && key in IDENTITY_KEYS) {
      identity[IDENTITY_KEYS[key]!] = key === 'Phone' ? phone(value) : value;
    } else {
      const shown = /phone|fax/i.test(key) ? phone(value) : value;
      customFields.push({ name: key, value: shown, hidden: /code|pin|password/i.test(key) });
    }
  }
  const rest = { ...base, notes, customFields: [...customFields, ...base.customFields] };
  if (noteType === 'Credit Card') return { ...rest, type: 'card', card };
  if (noteType === 'Address') return { ...rest, type: 'identity', identity };
  return {
    ...rest,
    customFields: [{ name: 'Note type', value: noteType, hidden: false }, ...rest.customFields],
    type: 'note',
  };
}

export function parseLastPassCsv(text: string): ParseResult {
  const { rows } = readCsv(text, 'LastPass CSV');
  const skipped: Skipped[] = [];
  const items = rows.map((r): TransferItem => {
    const url = r.get('url');
    const isNote = url === SECURE_NOTE_URL;
    const title = titleFor(r.get('name'), isNote ? '' : url);
    if (isSet(r.get('fav')))
      skipped.push({
        entry: i18n.t('line {{line}} ("{{title}}")', { line: r.line, title: title }),
        reason: i18n.t(FAVORITE),
      });
    const folder = r.get('grouping').replace(/\\/g, '/');
    const base = {
      ...common(title),
      customFields: r.rest(COLUMNS).map(([name, value]) => ({ name, value, hidden: false })),
      ...(folder !== '' && { folder }),
    };
    if (isNote) {
      const item = secureNote(r.get('extra'), base);
      // A note has no login; values LastPass left there anyway are kept.
      for (const [name, column] of [
        ['Username', 'username'],
        ['Password', 'password'],
      ] as const) {
        const value = r.get(column);
        if (value !== '') item.customFields.push({ name, value, hidden: column === 'password' });
      }
      const totp = r.get('totp');
      return totp === '' ? item : { ...item, totp };
    }
    const totp = r.get('totp');
    return {
      ...base,
      notes: r.get('extra'),
      urls: url === '' || url === 'http://' ? [] : [url],
      ...(totp !== '' && { totp }),
      type: 'login',
      login: { username: r.get('username'), password: r.get('password') },
    };
  });
  return { format: 'lastpass-csv', items, skipped };
}
