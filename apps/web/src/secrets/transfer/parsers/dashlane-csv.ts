// Dashlane's CSV export is a ZIP of one CSV per kind (credentials.csv, securenotes.csv,
// payments.csv, ids.csv, personalInfo.csv); each of those files is read here on its own, known by
// its header. credentials: `username,username2,username3,title,password,note,url,category,
// otpSecret` (newer exports `otpUrl`); securenotes: `title,note`; payments: `type,account_name,
// account_holder,cc_number,code,expiration_month,expiration_year,routing_number,account_number,
// country,issuing_bank` (type payment_card or bank); ids: `type,number,name,issue_date,
// expiration_date,place_of_issue,state`; personalInfo: one name, e-mail, phone or address per row.
// Every value no item field takes is a custom field (issue 32). dashlane-zip.ts reads the ZIP.
import type { ParseResult } from '../errors.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  type CustomField,
  type IdentityFields,
  type TransferItem,
} from '../model.ts';
import { csvHeader, readCsv, titleFor, type CsvRow } from '../read.ts';

export type DashlaneFile = 'credentials' | 'securenotes' | 'payments' | 'ids' | 'personalInfo';

/** The required columns of each file; detect.ts allows the optional ones. */
export const DASHLANE_COLUMNS: Record<DashlaneFile, { required: string[]; optional: string[] }> = {
  credentials: {
    required: ['username', 'title', 'password', 'note', 'url', 'category'],
    optional: ['username2', 'username3', 'otpsecret', 'otpurl'],
  },
  securenotes: { required: ['title', 'note'], optional: ['category'] },
  payments: {
    required: ['type', 'account_name', 'account_holder', 'cc_number', 'code'],
    optional: [
      'expiration_month',
      'expiration_year',
      'routing_number',
      'account_number',
      'country',
      'issuing_bank',
      'note',
    ],
  },
  ids: {
    required: ['type', 'number', 'name', 'issue_date', 'expiration_date'],
    optional: ['place_of_issue', 'state'],
  },
  personalInfo: {
    required: ['type', 'first_name', 'last_name', 'email', 'phone_number', 'address'],
    optional: [
      'title',
      'middle_name',
      'login',
      'date_of_birth',
      'place_of_birth',
      'email_type',
      'item_name',
      'country',
      'state',
      'city',
      'zip',
      'address_recipient',
      'address_building',
      'address_apartment',
      'address_floor',
      'address_door_code',
      'job_title',
      'url',
    ],
  },
};

const custom = (row: CsvRow, used: string[], hidden: string[] = []): CustomField[] =>
  row.rest(used).map(([name, value]) => ({ name, value, hidden: hidden.includes(name) }));

function credential(r: CsvRow): TransferItem {
  const url = r.get('url');
  const totp = r.get('otpurl') || r.get('otpsecret');
  const folder = r.get('category');
  const used = ['username', 'title', 'password', 'note', 'url', 'category', 'otpurl'];
  return {
    ...common(titleFor(r.get('title'), url)),
    notes: r.get('note'),
    urls: url === '' ? [] : [url],
    ...(totp !== '' && { totp }),
    // Both TOTP columns are kept when they differ.
    customFields: custom(r, r.get('otpurl') ? used : [...used, 'otpsecret'], ['otpsecret']),
    ...(folder !== '' && { folder }),
    type: 'login',
    login: { username: r.get('username'), password: r.get('password') },
  };
}

function secureNote(r: CsvRow): TransferItem {
  const folder = r.get('category');
  return {
    ...common(titleFor(r.get('title'), '')),
    notes: r.get('note'),
    customFields: custom(r, ['title', 'note', 'category']),
    ...(folder !== '' && { folder }),
    type: 'note',
  };
}

function payment(r: CsvRow): TransferItem {
  const title = titleFor(r.get('account_name'), '');
  const notes = r.get('note');
  if (r.get('type') === 'payment_card') {
    const card = {
      ...emptyCard(),
      cardholderName: r.get('account_holder'),
      number: r.get('cc_number'),
      code: r.get('code'),
    };
    const used = ['type', 'account_name', 'account_holder', 'cc_number', 'code', 'note'];
    const month = Number(r.get('expiration_month'));
    if (month >= 1 && month <= 12) {
      card.expMonth = String(month);
      used.push('expiration_month');
    }
    if (/^\d{4}$/.test(r.get('expiration_year').trim())) {
      card.expYear = r.get('expiration_year').trim();
      used.push('expiration_year');
    }
    return { ...common(title), notes, customFields: custom(r, used), type: 'card', card };
  }
  // A bank account (or a newer kind): a note of its values, its type first, the numbers hidden.
  const hidden = ['account_number', 'routing_number', 'cc_number', 'code'];
  return {
    ...common(title),
    notes,
    customFields: custom(r, ['account_name', 'note'], hidden),
    type: 'note',
  };
}

function names(full: string): Pick<IdentityFields, 'firstName' | 'lastName'> {
  const words = full.trim().split(/\s+/);
  if (words.length < 2) return { firstName: full.trim(), lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] ?? '' };
}

const ID_FIELDS: Record<string, keyof IdentityFields> = {
  passport: 'passportNumber',
  license: 'licenseNumber',
  social_security: 'ssn',
};

function idDocument(r: CsvRow): TransferItem {
  const identity = { ...emptyIdentity(), ...names(r.get('name')) };
  const key = ID_FIELDS[r.get('type')];
  if (key) identity[key] = r.get('number');
  const used = ['name', ...(key ? ['type', 'number'] : [])];
  const label = r.get('type').replace(/_/g, ' ');
  return {
    ...common(titleFor([label, r.get('name')].filter((v) => v).join(': '), '')),
    customFields: custom(r, used, ['number']),
    type: 'identity',
    identity,
  };
}

const PERSONAL: Record<string, keyof IdentityFields> = {
  title: 'title',
  first_name: 'firstName',
  middle_name: 'middleName',
  last_name: 'lastName',
  login: 'username',
  email: 'email',
  phone_number: 'phone',
  address: 'address1',
  city: 'city',
  state: 'state',
  zip: 'postalCode',
  country: 'country',
};

function personal(r: CsvRow): TransferItem {
  const identity = emptyIdentity();
  for (const [column, key] of Object.entries(PERSONAL)) identity[key] = r.get(column);
  const name = [identity.firstName, identity.lastName].filter((v) => v).join(' ');
  const title = r.get('item_name') || name || identity.email || identity.address1;
  return {
    ...common(titleFor(title, r.get('url'))),
    customFields: custom(r, ['type', 'item_name', ...Object.keys(PERSONAL)]),
    type: 'identity',
    identity,
  };
}

const READERS: Record<DashlaneFile, (r: CsvRow) => TransferItem> = {
  credentials: credential,
  securenotes: secureNote,
  payments: payment,
  ids: idDocument,
  personalInfo: personal,
};

/** Which of Dashlane's files a header (lowercase names) is, if any. */
export function dashlaneFile(columns: ReadonlySet<string>): DashlaneFile | undefined {
  return (Object.keys(DASHLANE_COLUMNS) as DashlaneFile[]).find((file) => {
    const { required, optional } = DASHLANE_COLUMNS[file];
    const allowed = new Set([...required, ...optional]);
    return required.every((c) => columns.has(c)) && [...columns].every((c) => allowed.has(c));
  });
}

/** One of the files; `file` when the name says which (in the ZIP), else known by its header. */
export function parseDashlaneCsv(
  text: string,
  known?: DashlaneFile,
  label = 'Dashlane CSV',
): ParseResult {
  const file =
    known ?? dashlaneFile(new Set(csvHeader(text).filter((c) => c !== ''))) ?? 'credentials';
  const { rows } = readCsv(text, label);
  return { format: 'dashlane-csv', items: rows.map(READERS[file]), skipped: [] };
}
