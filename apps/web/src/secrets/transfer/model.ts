// The normalised item every importer produces and every exporter consumes (issue 20): one shape
// for the item types of the password managers we read, whatever file they came from. A vault
// stores it through ../itemFormat.ts (storedFromTransfer / transferFromStored).

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
