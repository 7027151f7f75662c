// Enpass's CSV export (File > Export > .csv): a header row `Title,Field,Value,Field,Value,...,
// Note`, then one item per row: its title, each of its fields as a name and value pair in the
// cells after it, and its notes in the last cell (a row holding an even number of cells; a row
// with an odd number has no notes cell). There are no categories, folders or sensitive marks, so
// an item is known by its field names (Enpass's English labels): a card when it has a card number
// with a holder, CVC or expiry (`MM/YY`), a login when it has a username, e-mail, password or
// website, else a note. The first `TOTP` / `One-time code` field or `otpauth://` value is the
// TOTP; every field no item field takes is a custom field, those named like secrets hidden
// (issue 32). A file without the header row is read too.
import type { ParseResult } from '../errors.ts';
import {
  common,
  emptyCard,
  type CardFields,
  type CustomField,
  type TransferItem,
} from '../model.ts';
import { readCsv, titleFor } from '../read.ts';
import { enpassExpiry } from './enpass-json.ts';

const LABEL = 'Enpass CSV';

/** Field names (lowercase) of a login's values. */
const USERNAME = ['username', 'user name', 'login', 'user id'];
const EMAIL = ['e-mail', 'email'];
const PASSWORD = ['password'];
const URL_NAMES = ['website', 'url', 'web site', 'login url', 'address'];
const TOTP = ['totp', 'one-time code', 'one time code', 'authenticator key', 'otp', '2fa'];
/** Field names of a card's values. */
const CARD: Record<string, keyof CardFields> = {
  cardholder: 'cardholderName',
  'card holder': 'cardholderName',
  'name on card': 'cardholderName',
  type: 'brand',
  'card type': 'brand',
  number: 'number',
  'card number': 'number',
  cvc: 'code',
  cvv: 'code',
  'security code': 'code',
};
const EXPIRY = ['expiry date', 'expiration date', 'expiry', 'valid thru', 'valid until'];
/** Values Enpass masks by default, known by the field's name. */
const SECRET = /password|\bpin\b|cvc|cvv|secret|security|one-time|totp|\botp\b/i;

interface Pair {
  name: string;
  value: string;
}

type Kind = 'login' | 'card' | 'note';

function kindOf(pairs: Pair[]): Kind {
  const has = (names: readonly string[]) => pairs.some((p) => names.includes(p.name.toLowerCase()));
  const cardNumber = has(['number', 'card number']);
  if (
    cardNumber &&
    (has(['cardholder', 'card holder', 'name on card', 'cvc', 'cvv']) || has(EXPIRY))
  ) {
    return 'card';
  }
  return has([...USERNAME, ...EMAIL, ...PASSWORD, ...URL_NAMES]) ? 'login' : 'note';
}

function item(title: string, pairs: Pair[], notes: string): TransferItem {
  const kind = kindOf(pairs);
  const customFields: CustomField[] = [];
  const urls: string[] = [];
  const login = { username: '', password: '' };
  const card = emptyCard();
  let totp = '';
  let email = '';
  for (const { name, value } of pairs) {
    const key = name.trim().toLowerCase();
    const cardKey = CARD[key];
    if ((TOTP.includes(key) || value.toLowerCase().startsWith('otpauth://')) && totp === '') {
      totp = value;
    } else if (kind === 'login' && URL_NAMES.includes(key)) {
      urls.push(value);
    } else if (kind === 'login' && USERNAME.includes(key) && login.username === '') {
      login.username = value;
    } else if (kind === 'login' && EMAIL.includes(key) && email === '') {
      email = value;
    } else if (kind === 'login' && PASSWORD.includes(key) && login.password === '') {
      login.password = value;
    } else if (kind === 'card' && cardKey && card[cardKey] === '') {
      card[cardKey] = value;
    } else if (kind === 'card' && EXPIRY.includes(key) && enpassExpiry(value) && !card.expMonth) {
      Object.assign(card, enpassExpiry(value));
    } else {
      customFields.push({ name, value, hidden: SECRET.test(name) });
    }
  }
  // The e-mail is the username when there is none, else a field of its own.
  if (email !== '') {
    if (login.username === '') login.username = email;
    else customFields.unshift({ name: 'E-mail', value: email, hidden: false });
  }
  const base = {
    ...common(titleFor(title, urls[0] ?? '')),
    notes,
    urls,
    ...(totp !== '' && { totp }),
    customFields,
  };
  switch (kind) {
    case 'login':
      return { ...base, type: 'login', login };
    case 'card':
      return { ...base, type: 'card', card };
    case 'note':
      return { ...base, type: 'note' };
  }
}

/** Whether a row is Enpass's header: `Title`, then `Field`/`Value` pairs, then `Note`. */
const isHeader = (cells: readonly string[]) =>
  cells[0]?.trim().toLowerCase() === 'title' &&
  cells.slice(1).every((c) => ['field', 'value', 'note', ''].includes(c.trim().toLowerCase()));

export function parseEnpassCsv(text: string): ParseResult {
  // Every row is read by position: a one-column header is put before the file's first row.
  const newline = /\r\n|\n|\r/.exec(text)?.[0] ?? '\n';
  const { rows } = readCsv(`Title${newline}${text.replace(/^\uFEFF/, '')}`, LABEL, {
    linesAdded: 1,
  });
  const items = rows
    .filter((r, i) => i > 0 || !isHeader(r.cells))
    .map((r) => {
      const cells = r.cells;
      // Title, pairs, notes: an even count of cells ends with the notes.
      const hasNotes = cells.length % 2 === 0;
      const end = hasNotes ? cells.length - 1 : cells.length;
      const pairs: Pair[] = [];
      for (let i = 1; i < end; i += 2) {
        const name = cells[i] ?? '';
        const value = cells[i + 1] ?? '';
        // A field without a value holds nothing; one without a name keeps its value.
        if (value !== '') pairs.push({ name: name || `Column ${i + 2}`, value });
      }
      return item(cells[0] ?? '', pairs, hasNotes ? (cells[cells.length - 1] ?? '') : '');
    });
  return { format: 'enpass-csv', items, skipped: [] };
}
