// The normalised item every importer produces and every exporter consumes (issue 20): one shape
// for the item types of the password managers we read, whatever file they came from. The current
// secrets (model.ts: a site password or plain text) map both ways through toSecretFields and
// fromSecretFields; the richer types are folded into the notes until the vault stores them.
import { isPlainText, type SecretFields } from '../model.ts';

export const ITEM_TYPES = ['login', 'card', 'note', 'identity', 'ssh', 'apikey', 'text'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export interface CustomField {
  name: string;
  value: string;
  /** Concealed in the source (a Bitwarden hidden field, a 1Password concealed field...). */
  hidden: boolean;
}

interface Common {
  title: string;
  notes: string;
  /** Every URL of the item, the first being the main one. */
  urls: string[];
  /** An otpauth:// URI or a bare base32 secret, as the source had it. */
  totp?: string;
  customFields: CustomField[];
  /** The folder (or collection, group path, vault) the item sat in, "/" between levels. */
  folder?: string;
}

export interface LoginFields {
  username: string;
  password: string;
}
export interface CardFields {
  cardholderName: string;
  brand: string;
  number: string;
  /** "1" to "12", or '' when unknown. */
  expMonth: string;
  /** Four digits, or '' when unknown. */
  expYear: string;
  code: string;
}
/** Bitwarden's identity fields, the widest of the formats we read. */
export interface IdentityFields {
  title: string;
  firstName: string;
  middleName: string;
  lastName: string;
  company: string;
  email: string;
  phone: string;
  address1: string;
  address2: string;
  address3: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  ssn: string;
  username: string;
  passportNumber: string;
  licenseNumber: string;
}
export interface SshFields {
  privateKey: string;
  publicKey: string;
  fingerprint: string;
}
export interface ApiKeyFields {
  username: string;
  key: string;
}

export type TransferItem = Common &
  (
    | { type: 'login'; login: LoginFields }
    | { type: 'card'; card: CardFields }
    | { type: 'note' }
    | { type: 'identity'; identity: IdentityFields }
    | { type: 'ssh'; ssh: SshFields }
    | { type: 'apikey'; apikey: ApiKeyFields }
    | { type: 'text' }
  );

export const emptyCard = (): CardFields => ({
  cardholderName: '',
  brand: '',
  number: '',
  expMonth: '',
  expYear: '',
  code: '',
});

export const emptyIdentity = (): IdentityFields => ({
  title: '',
  firstName: '',
  middleName: '',
  lastName: '',
  company: '',
  email: '',
  phone: '',
  address1: '',
  address2: '',
  address3: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
  ssn: '',
  username: '',
  passportNumber: '',
  licenseNumber: '',
});

/** The common part of an item with everything empty; spread it and set `type` and its fields. */
export const common = (title: string): Common => ({ title, notes: '', urls: [], customFields: [] });

/** The fields of a card or identity, all strings. */
export const stringEntries = (o: CardFields | IdentityFields): [string, string][] =>
  Object.entries(o) as [string, string][];

/** The username an item is known by: what duplicates are matched on (preview.ts). */
export function itemUsername(item: TransferItem): string {
  switch (item.type) {
    case 'login':
      return item.login.username;
    case 'apikey':
      return item.apikey.username;
    case 'identity':
      return item.identity.username || item.identity.email;
    default:
      return '';
  }
}

/** The lines an item's own fields add to the notes when the vault cannot hold them apart. */
function extraLines(item: TransferItem): string[] {
  const lines: string[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value) lines.push(`${label}: ${value}`);
  };
  switch (item.type) {
    case 'card':
      add('Cardholder', item.card.cardholderName);
      add('Brand', item.card.brand);
      add('Number', item.card.number);
      if (item.card.expMonth || item.card.expYear) {
        add('Expires', `${item.card.expMonth.padStart(2, '0')}/${item.card.expYear}`);
      }
      add('Security code', item.card.code);
      break;
    case 'identity':
      for (const [k, v] of stringEntries(item.identity)) add(k, v);
      break;
    case 'ssh':
      add('Public key', item.ssh.publicKey);
      add('Fingerprint', item.ssh.fingerprint);
      add('Private key', item.ssh.privateKey && `\n${item.ssh.privateKey}`);
      break;
    default:
  }
  item.urls.slice(item.type === 'login' || item.type === 'apikey' ? 1 : 0).forEach((u) => {
    add('URL', u);
  });
  add('TOTP', item.totp);
  for (const f of item.customFields) add(f.name || 'Field', f.value);
  return lines;
}

/**
 * The current vault's fields for an item (a site password or plain text, model.ts). A login or
 * API key keeps its username, password (the key) and first URL; everything the current secret
 * has no field for (more URLs, TOTP, custom fields, a card's or identity's fields) is appended to
 * the notes as "Label: value" lines, so nothing is lost, only flattened.
 */
export function toSecretFields(item: TransferItem): SecretFields {
  const extra = extraLines(item);
  const notes = [item.notes, extra.join('\n')].filter((s) => s !== '').join('\n\n');
  const base = { title: item.title, username: '', password: '', url: '', notes };
  if (item.type === 'login') {
    return { ...base, ...item.login, url: item.urls[0] ?? '' };
  }
  if (item.type === 'apikey') {
    return {
      ...base,
      ...{ username: item.apikey.username, password: item.apikey.key },
      url: item.urls[0] ?? '',
    };
  }
  return base;
}

/** A current secret as an item: plain text (model.ts isPlainText) or a login. */
export function fromSecretFields(s: SecretFields): TransferItem {
  const base = { ...common(s.title), notes: s.notes, urls: s.url === '' ? [] : [s.url] };
  if (isPlainText(s)) return { ...base, type: 'text' };
  return { ...base, type: 'login', login: { username: s.username, password: s.password } };
}
