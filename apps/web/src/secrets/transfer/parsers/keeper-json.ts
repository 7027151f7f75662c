// Keeper's JSON export (Settings > Export > JSON, and Keeper Commander's `export --format json`):
// `{ shared_folders: [{ path, manage_users, manage_records, can_edit, can_share, permissions }],
// records: [{ uid, title, $type, login, password, login_url, notes, custom_fields, folders:
// [{ folder } | { shared_folder, folder?, can_edit, can_share }], attachments }] }`. A record of
// the older kind has no `$type` and its `custom_fields` are plain `name: value` pairs (the pair
// `TFC:Keeper` holds its TOTP URI); a typed record's keys are `$type[:label][::n]` (`$oneTimeCode`,
// `$paymentCard`, `$name`, `$address`, `$keyPair`...), some with an object for a value. Folders
// have `\` between levels; a `shared_folder` entry with a `folder` is that folder inside the shared
// one. `login` records (and untyped ones) become logins, or notes when they have no login,
// password or address; `bankCard` cards, `contact`, `address`, `passport`, `driverLicense`,
// `ssnCard` and `birthCertificate` identities, `encryptedNotes` notes, `sshKeys` SSH keys, any
// other type a login or note with a `Record type` custom field. Every value no item field takes is
// a custom field; what has no place is named in the preview (issue 32).
import { z } from 'zod';
import { formatNumber } from '../../../i18n/format.ts';
import { i18n } from '../../../i18n/i18n.ts';
import { entryName, type ParseResult, type Skipped } from '../errors.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  type CardFields,
  type CustomField,
  type IdentityFields,
  type TransferItem,
} from '../model.ts';
import { checkSchema, titleFor } from '../read.ts';
import { list, text } from './tolerant.ts';

const LABEL = 'Keeper JSON';
const TOTP_NAME = 'TFC:Keeper';

const recordSchema = z.looseObject({
  title: text,
  $type: text,
  login: text,
  password: text,
  login_url: text,
  notes: text,
  custom_fields: z.record(z.string(), z.unknown()).nullish(),
  folders: list(z.looseObject({ folder: text, shared_folder: text })),
  attachments: list(z.looseObject({ name: text, title: text })),
});
export const keeperSchema = z.looseObject({
  shared_folders: list(z.looseObject({ path: text, permissions: list(z.unknown()) })),
  records: z.array(recordSchema),
});
type KeeperRecord = z.infer<typeof recordSchema>;

/** The type and label of a custom field's key: `$text:Label::1`, `$oneTimeCode`, or `Name`. */
export function fieldKey(key: string): { type: string; label: string } {
  if (!key.startsWith('$')) return { type: 'text', label: key };
  const bare = key.slice(1).replace(/::\d+$/, '');
  const colon = bare.indexOf(':');
  return colon < 0
    ? { type: bare, label: '' }
    : { type: bare.slice(0, colon), label: bare.slice(colon + 1) };
}

/** Field types whose values Keeper masks. */
const HIDDEN_TYPES = new Set([
  'secret',
  'password',
  'pinCode',
  'oneTimeCode',
  'accountNumber',
  'securityQuestion',
  'keyPair',
  'paymentCard',
  'bankAccount',
  'licenseNumber',
]);
/** Values of these subkeys of an object value are masked whatever the field's type. */
const HIDDEN_SUBKEYS = new Set(['answer', 'privateKey', 'cardSecurityCode', 'accountNumber']);
/** Field types whose number is a time in milliseconds, written as a date. */
const DATE_TYPES = new Set(['date', 'birthDate', 'expirationDate']);
/** Links to other records or to files: not values of their own. */
const REF_TYPES = new Set(['fileRef', 'addressRef', 'cardRef', 'recordRef']);

/** `pinCode` -> `Pin code`: a field's name when it has no label. */
const words = (type: string) => {
  const spaced = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

const IDENTITY_TYPES = new Set([
  'contact',
  'address',
  'passport',
  'driverLicense',
  'ssnCard',
  'birthCertificate',
]);
/** The identity field an identity record's `accountNumber` is, by record type. */
const ID_NUMBERS: Record<string, keyof IdentityFields> = {
  passport: 'passportNumber',
  driverLicense: 'licenseNumber',
  ssnCard: 'ssn',
};

type Kind = 'login' | 'card' | 'identity' | 'note' | 'ssh';

function kindOf(record: KeeperRecord): Kind {
  const type = record.$type ?? '';
  if (type === 'bankCard') return 'card';
  if (IDENTITY_TYPES.has(type)) return 'identity';
  if (type === 'encryptedNotes') return 'note';
  if (type === 'sshKeys') return 'ssh';
  const loginish = [record.login, record.password, record.login_url].some((v) => v);
  return loginish ? 'login' : 'note';
}

/** A value as text: a date type's milliseconds as YYYY-MM-DD, '' for null. */
function asText(type: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && DATE_TYPES.has(type)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? String(value) : date.toISOString().slice(0, 10);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

interface Value {
  /** The field's type (`text` for an untyped record's pair). */
  type: string;
  name: string;
  value: unknown;
}

/** A card's expiry as Keeper writes it, `MM/YYYY` (`MM/YY` read too). */
export function keeperExpiry(value: string): { expMonth: string; expYear: string } | undefined {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  const month = Number(m?.[1]);
  if (!m || month < 1 || month > 12) return undefined;
  const year = m[2] ?? '';
  return { expMonth: String(month), expYear: year.length === 2 ? `20${year}` : year };
}

/** Folder paths of a record: `\` read as `/`, a folder inside a shared folder joined to it. */
function folderPaths(record: KeeperRecord): string[] {
  const path = (v: string | null | undefined) => (v ?? '').replace(/\\/g, '/');
  return (record.folders ?? [])
    .map((f) => [path(f.shared_folder), path(f.folder)].filter((p) => p !== '').join('/'))
    .filter((p) => p !== '');
}

function convert(record: KeeperRecord, entry: string, skipped: Skipped[]): TransferItem {
  const kind = kindOf(record);
  const type = record.$type ?? '';
  const customFields: CustomField[] = [];
  const add = (name: string, value: string, hidden: boolean) => {
    if (value !== '') customFields.push({ name, value, hidden });
  };
  const urls = record.login_url ? [record.login_url] : [];
  let notes = record.notes ?? '';
  let totp = '';
  const card = emptyCard();
  const identity = emptyIdentity();
  const ssh = { privateKey: '', publicKey: '', fingerprint: '' };
  const login = { username: record.login ?? '', password: record.password ?? '' };
  if (kind !== 'login') {
    add('Username', login.username, false);
    if (kind === 'ssh') add('Passphrase', login.password, true);
    else add('Password', login.password, true);
  }
  const setCard = (key: keyof CardFields, value: string) => {
    if (card[key] !== '' || value === '') return false;
    card[key] = value;
    return true;
  };
  const setIdentity = (key: keyof IdentityFields, value: string) => {
    if (identity[key] !== '' || value === '') return false;
    identity[key] = value;
    return true;
  };

  const values: Value[] = [];
  for (const [key, raw] of Object.entries(record.custom_fields ?? {})) {
    const { type: fieldType, label } = fieldKey(key);
    const name = label || words(fieldType);
    for (const value of Array.isArray(raw) ? (raw as unknown[]) : [raw]) {
      values.push({ type: fieldType, name, value });
    }
  }
  let files = 0;
  let links = 0;
  for (const { type: fieldType, name, value } of values) {
    if (value === null || value === undefined || value === '') continue;
    const hidden = HIDDEN_TYPES.has(fieldType);
    if (REF_TYPES.has(fieldType)) {
      if (fieldType === 'fileRef') files++;
      else links++;
      continue;
    }
    if (fieldType === 'passkey') {
      skipped.push({ entry, reason: i18n.t('Passkeys are not imported') });
      continue;
    }
    if (typeof value === 'object') {
      const o = value as Record<string, unknown>;
      const str = (k: string) => asText(fieldType, o[k]);
      const taken = new Set<string>();
      const take = (k: string, ok: boolean) => {
        if (ok) taken.add(k);
      };
      if (fieldType === 'paymentCard' && kind === 'card') {
        take('cardNumber', setCard('number', str('cardNumber')));
        take('cardSecurityCode', setCard('code', str('cardSecurityCode')));
        const expiry = keeperExpiry(str('cardExpirationDate'));
        if (expiry && card.expMonth === '') {
          Object.assign(card, expiry);
          taken.add('cardExpirationDate');
        }
      } else if (fieldType === 'name' && kind === 'identity') {
        take('first', setIdentity('firstName', str('first')));
        take('middle', setIdentity('middleName', str('middle')));
        take('last', setIdentity('lastName', str('last')));
      } else if (fieldType === 'address' && kind === 'identity') {
        take('street1', setIdentity('address1', str('street1')));
        take('street2', setIdentity('address2', str('street2')));
        take('city', setIdentity('city', str('city')));
        take('state', setIdentity('state', str('state')));
        take('zip', setIdentity('postalCode', str('zip')));
        take('country', setIdentity('country', str('country')));
      } else if (fieldType === 'phone' && kind === 'identity') {
        take('number', setIdentity('phone', str('number')));
      } else if (fieldType === 'keyPair' && kind === 'ssh') {
        take('publicKey', setSsh('publicKey', str('publicKey')));
        take('privateKey', setSsh('privateKey', str('privateKey')));
      }
      // What the item took no field for: each part a custom field, `Name (part)`.
      for (const [k, v] of Object.entries(o)) {
        if (taken.has(k)) continue;
        add(`${name} (${k})`, asText(fieldType, v), hidden || HIDDEN_SUBKEYS.has(k));
      }
      continue;
    }
    const v = asText(fieldType, value);
    const isTotp =
      fieldType === 'oneTimeCode' || name === TOTP_NAME || v.toLowerCase().startsWith('otpauth://');
    if (isTotp && totp === '') {
      totp = v;
    } else if (isTotp) {
      add(name, v, true);
    } else if (fieldType === 'url' && !urls.includes(v)) {
      urls.push(v);
    } else if (fieldType === 'note' && kind === 'note') {
      notes = notes === '' ? v : `${notes}\n\n${v}`;
    } else if (kind === 'card' && fieldType === 'text' && /^cardholder ?name$/i.test(name)) {
      if (!setCard('cardholderName', v)) add(name, v, hidden);
    } else if (!(kind === 'identity' && identityValue(fieldType, name, v))) {
      add(name, v, hidden);
    }
  }
  const attachments = record.attachments ?? [];
  for (const a of attachments) {
    skipped.push({
      entry,
      reason: i18n.t('Attachment "{{name}}" is not imported', {
        name: a.name ?? a.title ?? '',
      }),
    });
  }
  // A file reference names an attachment by id: counted when the attachments are not listed.
  if (files > 0 && attachments.length === 0) {
    skipped.push({
      entry,
      reason: i18n.t('{{count}} attached file(s) are not imported', {
        count: formatNumber(files),
      }),
    });
  }
  if (links > 0) {
    skipped.push({
      entry,
      reason: i18n.t('{{count}} link(s) to other records are not imported', {
        count: formatNumber(links),
      }),
    });
  }

  function setSsh(key: 'publicKey' | 'privateKey', value: string) {
    if (ssh[key] !== '' || value === '') return false;
    ssh[key] = value;
    return true;
  }
  /** Puts a plain value of an identity record in its field; false when it has none. */
  function identityValue(fieldType: string, name: string, value: string): boolean {
    if (fieldType === 'email') return setIdentity('email', value);
    if (fieldType === 'accountNumber' && ID_NUMBERS[type]) {
      return setIdentity(ID_NUMBERS[type], value);
    }
    if (fieldType === 'phone') return setIdentity('phone', value);
    if (fieldType === 'text' && /^company$/i.test(name)) return setIdentity('company', value);
    return false;
  }

  const folders = folderPaths(record);
  if (folders.length > 1) add('Folders', folders.slice(1).join(', '), false);
  // The type says what a passport's number or a bank account's values are: kept when not plain.
  if (
    type !== '' &&
    !['login', 'bankCard', 'encryptedNotes', 'sshKeys', 'contact'].includes(type)
  ) {
    add('Record type', type, false);
  }
  const base = {
    ...common(titleFor(record.title ?? '', urls[0] ?? '')),
    notes,
    urls,
    ...(totp !== '' && { totp }),
    customFields,
    ...(folders[0] !== undefined && { folder: folders[0] }),
  };
  switch (kind) {
    case 'login':
      return { ...base, type: 'login', login };
    case 'card':
      return { ...base, type: 'card', card };
    case 'identity':
      return { ...base, type: 'identity', identity };
    case 'ssh':
      return { ...base, type: 'ssh', ssh };
    case 'note':
      return { ...base, type: 'note' };
  }
}

/** Items of a Keeper JSON export (already parsed from its text). */
export function parseKeeperJson(data: unknown): ParseResult {
  const file = checkSchema(keeperSchema, data, LABEL, ['records', 'shared_folders'], (e) =>
    e && typeof e === 'object'
      ? ((e as { title?: unknown; path?: unknown }).title ?? (e as { path?: unknown }).path)
      : undefined,
  );
  const skipped: Skipped[] = [];
  const items = file.records.map((r, i) => convert(r, entryName(i, r.title), skipped));
  const used = new Set(file.records.flatMap((r) => (r.folders ?? []).map((f) => f.shared_folder)));
  for (const sf of file.shared_folders ?? []) {
    const entry = i18n.t('shared folder "{{path}}"', { path: sf.path ?? '' });
    if ((sf.permissions ?? []).length > 0) {
      skipped.push({ entry, reason: i18n.t('Its members and permissions are not imported') });
    }
    if (!used.has(sf.path))
      skipped.push({ entry, reason: i18n.t('An empty folder is not imported') });
  }
  return { format: 'keeper-json', items, skipped };
}
