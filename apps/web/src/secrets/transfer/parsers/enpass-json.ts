// Enpass's JSON export (File > Export > .json): `{ folders: [{ uuid, title, parent_uuid }],
// items: [{ title, note, category, template_type, favorite, archived, trashed, folders: [uuid],
// fields: [{ label, type, value, sensitive, deleted }], attachments }] }`. A field's `type` says
// what it is: username, email, password, url, totp, ccName, ccNumber, ccCvc, ccExpiry (MM/YY)...;
// `section` is a heading with no value. Categories login and password become logins, creditcard
// cards, identity identities, note notes; any other (finance, license, computer...) a login when it
// has a username or password, else a note. Every field no item field takes is a custom field
// (sensitive ones hidden); what has no place is named in the preview (issue 32).
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
import { checkSchema } from '../read.ts';
import { FAVORITE } from './bitwarden-csv.ts';
import { list, text } from './tolerant.ts';

const LABEL = 'Enpass JSON';

const flag = z
  .union([z.number(), z.boolean(), z.string()])
  .nullish()
  .transform((v) => v === 1 || v === true || v === '1' || v === 'true');

const fieldSchema = z.looseObject({
  label: text,
  type: text,
  value: text,
  sensitive: flag,
  deleted: flag,
});
const itemSchema = z.looseObject({
  title: text,
  note: text,
  category: text,
  template_type: text,
  favorite: flag,
  archived: flag,
  trashed: flag,
  folders: list(text),
  fields: list(fieldSchema),
  attachments: list(z.looseObject({ name: text })),
});
export const enpassSchema = z.looseObject({
  folders: list(z.looseObject({ uuid: text, title: text, parent_uuid: text })),
  items: z.array(itemSchema),
});
type Field = z.infer<typeof fieldSchema>;
type Item = z.infer<typeof itemSchema>;

const CARD_TYPES: Record<string, keyof CardFields> = {
  ccName: 'cardholderName',
  ccType: 'brand',
  ccNumber: 'number',
  ccCvc: 'code',
};

/** Identity fields by their label (Enpass's identity template types most of them `text`). */
const IDENTITY_LABELS: Record<string, keyof IdentityFields> = {
  title: 'title',
  'first name': 'firstName',
  'middle name': 'middleName',
  'last name': 'lastName',
  company: 'company',
  email: 'email',
  phone: 'phone',
  'mobile phone': 'phone',
  'home phone': 'phone',
  street: 'address1',
  address: 'address1',
  'address line 1': 'address1',
  'address line 2': 'address2',
  city: 'city',
  state: 'state',
  'zip code': 'postalCode',
  zip: 'postalCode',
  'postal code': 'postalCode',
  country: 'country',
  username: 'username',
  'social security number': 'ssn',
  'passport number': 'passportNumber',
  "driver's license": 'licenseNumber',
};

/** Enpass writes a card's expiry as `MM/YY`; `MM/YYYY` is read too. */
export function enpassExpiry(value: string): { expMonth: string; expYear: string } | undefined {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  const month = Number(m?.[1]);
  if (!m || month < 1 || month > 12) return undefined;
  const year = m[2] ?? '';
  return { expMonth: String(month), expYear: year.length === 2 ? `20${year}` : year };
}

/** A folder's path, its parents first, "/" between levels. */
function folderPaths(folders: z.infer<typeof enpassSchema>['folders']): Map<string, string> {
  const byId = new Map((folders ?? []).map((f) => [f.uuid ?? '', f]));
  const path = (id: string, seen: Set<string>): string => {
    const f = byId.get(id);
    if (!f || seen.has(id)) return '';
    seen.add(id);
    const parent = f.parent_uuid ? path(f.parent_uuid, seen) : '';
    return parent === '' ? (f.title ?? '') : `${parent}/${f.title ?? ''}`;
  };
  return new Map([...byId.keys()].map((id) => [id, path(id, new Set())]));
}

type Kind = 'login' | 'card' | 'identity' | 'note';

function kindOf(item: Item, fields: Field[]): Kind {
  const category = (item.category ?? item.template_type?.split('.')[0] ?? '').toLowerCase();
  if (category === 'login' || category === 'password') return 'login';
  if (category === 'creditcard') return 'card';
  if (category === 'identity') return 'identity';
  if (category === 'note') return 'note';
  const loginish = fields.some((f) => ['username', 'password'].includes(f.type ?? ''));
  return loginish ? 'login' : 'note';
}

function convert(item: Item, folders: Map<string, string>, entry: string, skipped: Skipped[]) {
  if (item.trashed) {
    skipped.push({ entry, reason: i18n.t('In the trash') });
    return undefined;
  }
  if (item.favorite) skipped.push({ entry, reason: i18n.t(FAVORITE) });
  if (item.archived) {
    skipped.push({ entry, reason: i18n.t('The archived mark is not imported (the item is)') });
  }
  for (const a of item.attachments ?? []) {
    skipped.push({
      entry,
      reason: i18n.t('Attachment "{{name}}" is not imported', { name: a.name ?? '' }),
    });
  }
  const all = item.fields ?? [];
  const deleted = all.filter((f) => f.deleted && (f.value ?? '') !== '');
  if (deleted.length > 0) {
    skipped.push({
      entry,
      reason: i18n.t('{{count}} deleted field(s) are not imported', {
        count: formatNumber(deleted.length),
      }),
    });
  }
  const fields = all.filter((f) => !f.deleted && f.type !== 'section' && (f.value ?? '') !== '');
  const kind = kindOf(item, fields);
  const folderNames = (item.folders ?? []).map((id) => folders.get(id) ?? '').filter((f) => f);
  const customFields: CustomField[] = [];
  const urls: string[] = [];
  const login = { username: '', password: '' };
  const card = emptyCard();
  const identity = emptyIdentity();
  let totp = '';
  for (const f of fields) {
    const type = f.type ?? '';
    const value = f.value ?? '';
    const label = (f.label ?? '').trim();
    const identityKey = IDENTITY_LABELS[label.toLowerCase()];
    if (type === 'url') {
      urls.push(value);
    } else if (type === 'totp' && totp === '') {
      totp = value;
    } else if (kind === 'login' && type === 'username' && login.username === '') {
      login.username = value;
    } else if (kind === 'login' && type === 'email' && login.username === '') {
      login.username = value;
    } else if (kind === 'login' && type === 'password' && login.password === '') {
      login.password = value;
    } else if (kind === 'card' && type in CARD_TYPES && card[CARD_TYPES[type]!] === '') {
      card[CARD_TYPES[type]!] = value;
    } else if (kind === 'card' && type === 'ccExpiry' && enpassExpiry(value)) {
      Object.assign(card, enpassExpiry(value));
    } else if (kind === 'identity' && identityKey && identity[identityKey] === '') {
      identity[identityKey] = value;
    } else {
      customFields.push({ name: label || type, value, hidden: f.sensitive || type === 'totp' });
    }
  }
  if (folderNames.length > 1) {
    customFields.push({ name: 'Folders', value: folderNames.join(', '), hidden: false });
  }
  const base = {
    ...common(item.title ?? ''),
    notes: item.note ?? '',
    urls,
    ...(totp !== '' && { totp }),
    customFields,
    ...(folderNames[0] !== undefined && { folder: folderNames[0] }),
  };
  if (base.title.trim() === '') base.title = urls[0] ?? 'Untitled';
  switch (kind) {
    case 'login':
      return { ...base, type: 'login', login } satisfies TransferItem;
    case 'card':
      return { ...base, type: 'card', card } satisfies TransferItem;
    case 'identity':
      return { ...base, type: 'identity', identity } satisfies TransferItem;
    case 'note':
      return { ...base, type: 'note' } satisfies TransferItem;
  }
}

/** Items of an Enpass JSON export (already parsed from its text). */
export function parseEnpassJson(data: unknown): ParseResult {
  const file = checkSchema(enpassSchema, data, LABEL, ['items'], (e) =>
    e && typeof e === 'object' ? (e as { title?: unknown }).title : undefined,
  );
  const folders = folderPaths(file.folders);
  const skipped: Skipped[] = [];
  const items: TransferItem[] = [];
  file.items.forEach((item, i) => {
    const converted = convert(item, folders, entryName(i, item.title), skipped);
    if (converted) items.push(converted);
  });
  return { format: 'enpass-json', items, skipped };
}
