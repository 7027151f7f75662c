// The JSON a secret is stored as, encrypted (issue 20, the agreed contract): the spec's site
// password and plain text, plus the richer item types, several URLs, TOTP and custom fields.
//
//   { title, type?, username?, password?, url?, notes?, urls?, totp?, fields?, folder?,
//     card?, identity?, ssh?, apikey? }
//
// `type` absent is an item written before issue 20: plain text when it has notes and no username
// or password (model.ts isPlainText), else a login. `url` is an item's first URL and `urls` its
// further ones (any type may have them; a login is the one the UI shows them on). `totp` is an
// otpauth:// URI (tools/totp.ts parseTotp's canonical form). The per-type objects are those of
// transfer/model.ts. The crypto package keeps any extra JSON field, so nothing here is lost on a
// round trip through the Worker.
import type { SecretData } from './model.ts';
import { parseTotp } from './tools/totp.ts';
import {
  emptyCard,
  emptyIdentity,
  ITEM_TYPES,
  type ApiKeyFields,
  type CardFields,
  type CustomField,
  type IdentityFields,
  type ItemType,
  type SshFields,
  type TransferItem,
} from './transfer/model.ts';

export interface SecretItemJson {
  title: string;
  type?: ItemType;
  username?: string;
  password?: string;
  /** The item's first URL. */
  url?: string;
  notes?: string;
  /** The item's further URLs, after `url`. */
  urls?: string[];
  /** An otpauth:// URI. */
  totp?: string;
  fields?: CustomField[];
  folder?: string;
  card?: CardFields;
  identity?: IdentityFields;
  ssh?: SshFields;
  apikey?: ApiKeyFields;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The strings of `v` under the keys of `empty`; anything missing or not a string is ''. */
function stringsLike<T extends object>(empty: T, v: unknown): T {
  const src = isRecord(v) ? v : {};
  const out: Record<string, string> = {};
  for (const k of Object.keys(empty)) out[k] = text(src[k]);
  return out as T;
}

const emptySsh = (): SshFields => ({ privateKey: '', publicKey: '', fingerprint: '' });
const emptyApiKey = (): ApiKeyFields => ({ username: '', key: '' });

/** The type of a stored item; an item without one (written before issue 20) as the spec reads it. */
export function storedType(json: unknown): ItemType {
  const o = isRecord(json) ? json : {};
  const t = o.type;
  if (typeof t === 'string' && (ITEM_TYPES as readonly string[]).includes(t)) return t as ItemType;
  const plain = text(o.notes) !== '' && text(o.username) === '' && text(o.password) === '';
  return plain ? 'text' : 'login';
}

/** Every URL of a stored item, the first being `url`; empty ones dropped. */
export function storedUrls(json: unknown): string[] {
  const o = isRecord(json) ? json : {};
  const more = Array.isArray(o.urls) ? o.urls.map(text) : [];
  return [text(o.url), ...more].filter((u) => u !== '');
}

/** The custom fields of a stored item; malformed entries dropped. */
export function storedFields(json: unknown): CustomField[] {
  const o = isRecord(json) ? json : {};
  if (!Array.isArray(o.fields)) return [];
  return o.fields.filter(isRecord).map((f) => ({
    name: text(f.name),
    value: text(f.value),
    hidden: f.hidden === true,
  }));
}

/**
 * A TOTP as stored: the canonical otpauth:// URI when it parses (a bare base32 secret becomes
 * one, labelled with the item's title), else the text as given, so nothing the user had is lost
 * (the card says why it gives no code).
 */
export function canonicalTotp(totp: string, label: string): string {
  const t = totp.trim();
  if (t === '') return '';
  return parseTotp(t, { label }).uri ?? t;
}

/** The JSON to store (encrypt) for an imported or edited item. Empty optional parts are left out. */
export function storedFromTransfer(item: TransferItem): SecretItemJson {
  const urls = item.urls.filter((u) => u !== '');
  const out: SecretItemJson = { title: item.title, type: item.type, notes: item.notes };
  if (item.type === 'login') {
    out.username = item.login.username;
    out.password = item.login.password;
  }
  if (urls.length > 0) out.url = urls[0];
  if (urls.length > 1) out.urls = urls.slice(1);
  const totp = item.totp ? canonicalTotp(item.totp, item.title) : '';
  if (totp !== '') out.totp = totp;
  if (item.customFields.length > 0) out.fields = item.customFields.map((f) => ({ ...f }));
  if (item.folder) out.folder = item.folder;
  switch (item.type) {
    case 'card':
      out.card = { ...item.card };
      break;
    case 'identity':
      out.identity = { ...item.identity };
      break;
    case 'ssh':
      out.ssh = { ...item.ssh };
      break;
    case 'apikey':
      out.apikey = { ...item.apikey };
      break;
    default:
  }
  return out;
}

/**
 * A stored item (any JSON the Worker decrypted, old or new) as a TransferItem. Never throws:
 * fields of the wrong kind read as empty, and an old item maps as the spec displays it.
 */
export function transferFromStored(json: unknown): TransferItem {
  const o = isRecord(json) ? json : {};
  const base = {
    title: text(o.title),
    notes: text(o.notes),
    urls: storedUrls(o),
    customFields: storedFields(o),
    ...(text(o.totp) !== '' ? { totp: text(o.totp) } : {}),
    ...(text(o.folder) !== '' ? { folder: text(o.folder) } : {}),
  };
  const type = storedType(o);
  switch (type) {
    case 'login':
      return {
        ...base,
        type,
        login: { username: text(o.username), password: text(o.password) },
      };
    case 'card':
      return { ...base, type, card: stringsLike(emptyCard(), o.card) };
    case 'identity':
      return { ...base, type, identity: stringsLike(emptyIdentity(), o.identity) };
    case 'ssh':
      return { ...base, type, ssh: stringsLike(emptySsh(), o.ssh) };
    case 'apikey':
      return { ...base, type, apikey: stringsLike(emptyApiKey(), o.apikey) };
    case 'note':
    case 'text':
      return { ...base, type };
  }
}

/**
 * A stored item as the app holds it once decrypted (model.ts SecretData): the spec's five fields
 * always strings ('' when unused: a login's username and password, the first URL) and the extras,
 * with the type resolved (an old item gets the one the spec reads it as).
 */
export function secretDataFromStored(json: unknown): SecretData {
  const item = transferFromStored(json);
  const out: SecretData = {
    title: item.title,
    username: item.type === 'login' ? item.login.username : '',
    password: item.type === 'login' ? item.login.password : '',
    url: item.urls[0] ?? '',
    notes: item.notes,
    type: item.type,
  };
  if (item.urls.length > 1) out.urls = item.urls.slice(1);
  if (item.totp) out.totp = item.totp;
  if (item.customFields.length > 0) out.fields = item.customFields;
  if (item.folder) out.folder = item.folder;
  if (item.type === 'card') out.card = item.card;
  if (item.type === 'identity') out.identity = item.identity;
  if (item.type === 'ssh') out.ssh = item.ssh;
  if (item.type === 'apikey') out.apikey = item.apikey;
  return out;
}

/** What to encrypt for an item made or edited in the app: the contract's JSON, as SecretData. */
export const secretDataFromTransfer = (item: TransferItem): SecretData =>
  secretDataFromStored(storedFromTransfer(item));
