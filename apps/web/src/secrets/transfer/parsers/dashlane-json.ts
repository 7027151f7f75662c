// Dashlane's JSON export (the desktop app's readable archive): one list per kind under a key of
// its own, `AUTHENTIFIANT` (logins: title, domain, login, email, secondaryLogin, password, note,
// otpSecret / otpUrl, category), `SECURENOTE` (title, content, category),
// `PAYMENTMEANS_CREDITCARD` (name, owner, cardNumber, securityCode, expireMonth, expireYear,
// bank), `IDENTITY` (title, firstName, middleName, lastName, pseudo, birthDate, birthPlace),
// `EMAIL`, `PHONE`, `ADDRESS`, `PASSPORT`, `DRIVERLICENCE`, `IDCARD`, `SOCIALSECURITYSTATEMENT`,
// `COMPANY`, `PERSONALWEBSITE`, `FISCALSTATEMENT`, `BANKSTATEMENT` and `PAYMENTMEAN_PAYPAL`. The
// names the newer apps use (`credentials`, `notes`, `paymentCards`, `identities`...) are read
// too, and keys are matched whatever their case or underscores. Logins and PayPal accounts become
// logins, secure notes notes, cards cards, bank accounts notes (numbers hidden), the personal
// kinds identities, a list of a kind we do not know notes with a `Dashlane type` field. Every value
// no item field takes is a custom field; ids and times are bookkeeping; what has no place (the
// settings) is named in the preview (issue 32).
import { z } from 'zod';
import { i18n } from '../../../i18n/i18n.ts';
import { entryName, malformed, type ParseResult, type Skipped } from '../errors.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  type CustomField,
  type IdentityFields,
  type TransferItem,
} from '../model.ts';
import { checkSchema, titleFor } from '../read.ts';

const LABEL = 'Dashlane JSON';

/** A key as matched: lowercase, without `_`. */
const norm = (key: string) => key.toLowerCase().replace(/_/g, '');

type Kind =
  | 'login'
  | 'note'
  | 'card'
  | 'bank'
  | 'identity'
  | 'email'
  | 'phone'
  | 'address'
  | 'passport'
  | 'license'
  | 'idcard'
  | 'ssn'
  | 'company'
  | 'website'
  | 'fiscal'
  | 'paypal'
  | 'settings';

/** Each list's kind, by its normalised key in either of Dashlane's spellings. */
const SECTIONS: Record<string, Kind> = {
  authentifiant: 'login',
  credentials: 'login',
  passwords: 'login',
  securenote: 'note',
  securenotes: 'note',
  notes: 'note',
  paymentmeanscreditcard: 'card',
  paymentcards: 'card',
  creditcards: 'card',
  bankstatement: 'bank',
  bankaccounts: 'bank',
  identity: 'identity',
  identities: 'identity',
  email: 'email',
  emails: 'email',
  phone: 'phone',
  phones: 'phone',
  address: 'address',
  addresses: 'address',
  passport: 'passport',
  passports: 'passport',
  driverlicence: 'license',
  driverlicense: 'license',
  driverlicences: 'license',
  driverlicenses: 'license',
  idcard: 'idcard',
  idcards: 'idcard',
  socialsecuritystatement: 'ssn',
  socialsecurityids: 'ssn',
  company: 'company',
  companies: 'company',
  personalwebsite: 'website',
  websites: 'website',
  fiscalstatement: 'fiscal',
  fiscalids: 'fiscal',
  paymentmeanpaypal: 'paypal',
  paypal: 'paypal',
  paypalaccounts: 'paypal',
  generalsettings: 'settings',
};

/** Keys only Dashlane writes at the top of its export: one of them is its signature. */
export const DASHLANE_SIGNATURE = [
  'AUTHENTIFIANT',
  'SECURENOTE',
  'PAYMENTMEANS_CREDITCARD',
  'IDENTITY',
];
/** The newer spelling's main lists; such a file is Dashlane's when it has no key of another. */
export const DASHLANE_NEW_SIGNATURE = ['credentials', 'paymentCards', 'secureNotes', 'identities'];

/** Whether a parsed JSON file is a Dashlane export (detect.ts). */
export function isDashlaneJson(o: Record<string, unknown>): boolean {
  const keys = Object.keys(o);
  if (DASHLANE_SIGNATURE.some((k) => Array.isArray(o[k]))) return true;
  return (
    DASHLANE_NEW_SIGNATURE.some((k) => Array.isArray(o[k])) &&
    keys.every((k) => SECTIONS[norm(k)] !== undefined)
  );
}

/** An item's ids, times and sync state: bookkeeping, neither imported nor listed. */
const BOOKKEEPING = new Set(
  [
    'id',
    'anonId',
    'kwType',
    'localeFormat',
    'spaceId',
    'creationDate',
    'creationDatetime',
    'lastBackupTime',
    'lastUse',
    'lastUseDate',
    'lastUseDatetime',
    'userModificationDatetime',
    'modificationDatetime',
    'attachments',
  ].map(norm),
);
/** Values Dashlane masks. */
const HIDDEN = /password|securitycode|^code$|cvv|pin|iban|accountnumber|otpsecret|number$/;

const fileSchema = z.record(z.string(), z.unknown());
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as text: numbers and booleans as written, '' for null, objects as JSON. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** An item's values, taken by name (case and `_` ignored); the rest become custom fields. */
class Values {
  private readonly byKey = new Map<string, [string, string]>();
  constructor(o: Record<string, unknown>) {
    for (const [k, v] of Object.entries(o)) {
      if (!BOOKKEEPING.has(norm(k))) this.byKey.set(norm(k), [k, asText(v)]);
    }
  }
  /** The first non-empty value under one of `keys`, taken. */
  take(...keys: string[]): string {
    for (const key of keys) {
      const entry = this.byKey.get(norm(key));
      if (entry && entry[1] !== '') {
        this.byKey.delete(norm(key));
        return entry[1];
      }
    }
    return '';
  }
  /** A value, not taken. */
  peek(...keys: string[]): string {
    for (const key of keys) {
      const v = this.byKey.get(norm(key))?.[1];
      if (v) return v;
    }
    return '';
  }
  /** Every value not taken, as a custom field. */
  rest(extraHidden: readonly string[] = []): CustomField[] {
    return [...this.byKey.values()]
      .filter(([, v]) => v !== '')
      .map(([name, value]) => ({
        name,
        value,
        hidden: HIDDEN.test(norm(name)) || extraHidden.map(norm).includes(norm(name)),
      }));
  }
}

function names(full: string): Pick<IdentityFields, 'firstName' | 'lastName'> {
  const words = full.trim().split(/\s+/);
  if (words.length < 2) return { firstName: full.trim(), lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] ?? '' };
}

const month = (v: string) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 12 ? String(n) : '';
};
const year = (v: string) => {
  const t = v.trim();
  if (/^\d{4}$/.test(t)) return t;
  return /^\d{2}$/.test(t) ? `20${t}` : '';
};

/** The number field each identity document fills, and its word for a title. */
const DOCUMENTS: Partial<Record<Kind, [keyof IdentityFields | undefined, string]>> = {
  passport: ['passportNumber', 'Passport'],
  license: ['licenseNumber', 'Driving licence'],
  ssn: ['ssn', 'Social security number'],
  idcard: [undefined, 'ID card'],
  fiscal: [undefined, 'Tax number'],
};

function convert(kind: Kind, o: Record<string, unknown>): TransferItem {
  const v = new Values(o);
  switch (kind) {
    case 'login':
    case 'paypal': {
      const url = v.take('domain', 'url', 'website');
      const title = titleFor(v.take('title', 'name'), url);
      const otpUrl = v.take('otpUrl');
      const otpSecret = otpUrl === '' ? v.take('otpSecret') : '';
      const totp = otpUrl || otpSecret;
      const folder = v.take('category');
      const username = v.take('login', 'username', 'email');
      return {
        ...common(title),
        notes: v.take('note', 'notes'),
        urls: url === '' ? [] : [url],
        ...(totp !== '' && { totp }),
        type: 'login',
        login: { username, password: v.take('password') },
        customFields: v.rest(),
        ...(folder !== '' && { folder }),
      };
    }
    case 'note': {
      const title = titleFor(v.take('title', 'name'), '');
      const folder = v.take('category');
      return {
        ...common(title),
        notes: v.take('content', 'note', 'notes'),
        type: 'note',
        customFields: v.rest(),
        ...(folder !== '' && { folder }),
      };
    }
    case 'card': {
      const card = {
        ...emptyCard(),
        cardholderName: v.take('owner', 'cardholderName', 'holder', 'accountHolder'),
        number: v.take('cardNumber', 'ccNumber', 'number'),
        code: v.take('securityCode', 'code', 'cvv'),
      };
      const m = month(v.peek('expireMonth', 'expirationMonth', 'expiryMonth'));
      if (m) card.expMonth = month(v.take('expireMonth', 'expirationMonth', 'expiryMonth'));
      const y = year(v.peek('expireYear', 'expirationYear', 'expiryYear'));
      if (y) card.expYear = year(v.take('expireYear', 'expirationYear', 'expiryYear'));
      const title = titleFor(v.take('name', 'title', 'accountName', 'bank'), '');
      return {
        ...common(title),
        notes: v.take('note', 'notes'),
        type: 'card',
        card,
        customFields: v.rest(),
      };
    }
    case 'bank': {
      const title = titleFor(v.take('bankAccountName', 'name', 'title', 'accountName'), '');
      return {
        ...common(title),
        notes: v.take('note', 'notes'),
        type: 'note',
        customFields: v.rest(['bankAccountBIC', 'bic', 'routingNumber']),
      };
    }
    default:
      return identity(kind, v);
  }
}

function identity(kind: Kind, v: Values): TransferItem {
  const id = emptyIdentity();
  const set = (key: keyof IdentityFields, ...from: string[]) => {
    if (id[key] === '') id[key] = v.take(...from);
  };
  set('title', 'title');
  set('firstName', 'firstName');
  set('middleName', 'middleName');
  set('lastName', 'lastName');
  if (id.firstName === '' && id.lastName === '') {
    Object.assign(
      id,
      names(v.take('fullName', 'fullname', 'socialSecurityFullname', 'ownerName', 'name')),
    );
  }
  set('username', 'pseudo', 'login');
  set('email', 'email');
  const doc = DOCUMENTS[kind];
  // A document's number, before a phone's (which Dashlane also calls `number`).
  const number = doc ? v.take('number', 'socialSecurityNumber', 'fiscalNumber') : '';
  set('phone', 'number', 'phone', 'phoneNumber');
  let title = '';
  switch (kind) {
    case 'email':
      title = v.take('emailName', 'itemName') || id.email;
      break;
    case 'phone':
      title = v.take('phoneName', 'itemName') || id.phone;
      break;
    case 'address':
      set('address1', 'addressFull', 'address', 'streetName', 'address1');
      set('address2', 'address2');
      set('city', 'city');
      set('state', 'state');
      set('postalCode', 'zipcode', 'zip', 'postalCode');
      set('country', 'country');
      title = v.take('addressName', 'itemName') || id.address1;
      break;
    case 'company':
      set('company', 'name', 'company');
      title = id.company;
      break;
    default:
      break;
  }
  if (doc) {
    const [field, word] = doc;
    const fullName = [id.firstName, id.lastName].filter((n) => n).join(' ');
    title = [word, fullName].filter((n) => n).join(': ');
    if (field) id[field] = number;
    else if (number !== '') return withFields(title, id, v, [{ name: 'number', value: number }]);
  }
  if (kind === 'website') title = v.peek('name', 'website');
  if (title === '') title = [id.firstName, id.lastName].filter((n) => n).join(' ');
  return withFields(title, id, v, []);
}

function withFields(
  title: string,
  identity: IdentityFields,
  v: Values,
  first: { name: string; value: string }[],
): TransferItem {
  return {
    ...common(titleFor(title, '')),
    notes: v.take('note', 'notes'),
    type: 'identity',
    identity,
    customFields: [...first.map((f) => ({ ...f, hidden: true })), ...v.rest()],
  };
}

/** Items of a Dashlane JSON export (already parsed from its text). */
export function parseDashlaneJson(data: unknown): ParseResult {
  const file = checkSchema(fileSchema, data, LABEL, [], () => undefined);
  const items: TransferItem[] = [];
  const skipped: Skipped[] = [];
  for (const [key, value] of Object.entries(file)) {
    const kind = SECTIONS[norm(key)];
    if (kind === 'settings') {
      skipped.push({ entry: key, reason: i18n.t("Dashlane's settings are not imported") });
      continue;
    }
    if (!Array.isArray(value)) {
      if (value !== null && value !== undefined) {
        skipped.push({ entry: key, reason: i18n.t('This part of the file is not imported') });
      }
      continue;
    }
    (value as unknown[]).forEach((o, i) => {
      if (o === null) return;
      if (!isObject(o)) {
        throw malformed(
          i18n.t(
            'This {{label}} file cannot be read at {{section}}, {{entry}}: it is not an object.',
            {
              label: LABEL,
              section: key,
              entry: entryName(i),
            },
          ),
        );
      }
      if (kind === undefined) {
        // A kind we do not know: a note of its values, so that none is lost.
        const v = new Values(o);
        const title = titleFor(v.take('title', 'name'), '');
        items.push({
          ...common(title),
          notes: v.take('note', 'notes', 'content'),
          type: 'note',
          customFields: [{ name: 'Dashlane type', value: key, hidden: false }, ...v.rest()],
        });
        return;
      }
      items.push(convert(kind, o));
    });
  }
  return { format: 'dashlane-json', items, skipped };
}
