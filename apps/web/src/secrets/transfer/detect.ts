// Recognising an import file by what identifies its format (issue 32): a CSV by the exact set of
// columns its product writes, a JSON file by its signature keys. Never by "has a url column": the
// CSVs of LastPass or NordPass and Enpass's JSON share columns and keys with the formats we read,
// and taking one for another would import it wrong. Every rule is checked on its own, so a test
// can assert that a sample matches its own format and no other.
import { EXPORT_FORMAT } from './export.ts';
import type { ImportFormat } from './errors.ts';
import { dashlaneFile } from './parsers/dashlane-csv.ts';
import { isDashlaneJson } from './parsers/dashlane-json.ts';

type CsvRule = (columns: ReadonlySet<string>, fileName: string) => boolean;

/** Every `required` column is there and nothing outside `allowed` (header names, lowercase). */
const exactly =
  (required: readonly string[], optional: readonly string[] = []): CsvRule =>
  (columns) => {
    const allowed = new Set([...required, ...optional]);
    return required.every((c) => columns.has(c)) && [...columns].every((c) => allowed.has(c));
  };

const ONEPASSWORD_OPTIONAL = [
  'url',
  'urls',
  'website',
  'login url',
  'username',
  'login username',
  'login password',
  'otpauth',
  'one-time password',
  'totp',
  'favorite',
  'archived',
  'tags',
  'notes',
  'notesplain',
  'type',
];

/** Words other formats' headers hold; a Keeper record starting so is not taken for one. */
const HEADER_WORDS = ['password', 'pwd', 'title', 'name', 'url', 'username', 'login'];

/**
 * Keeper writes no header, so its first record is read in place of one: a file named for Keeper
 * (its default keeper.csv) or a TFC:Keeper cell (its TOTP pair), whose first row names none of
 * the columns the other formats write.
 */
const looksLikeKeeper: CsvRule = (cells, fileName) =>
  !HEADER_WORDS.some((w) => cells.has(w)) && (/keeper/i.test(fileName) || cells.has('tfc:keeper'));

export const CSV_RULES: Partial<Record<ImportFormat, CsvRule>> = {
  // Individual (folder, favorite) or organization (collections); reprompt since 2022; sealvault
  // is our export's column ([Note: sealvault extension]).
  'bitwarden-csv': exactly(
    ['type', 'name', 'notes', 'fields', 'login_uri', 'login_username', 'login_password'],
    ['folder', 'collections', 'favorite', 'reprompt', 'login_totp', 'sealvault'],
  ),
  'firefox-csv': exactly(
    ['url', 'username', 'password', 'httprealm', 'formactionorigin'],
    ['guid', 'timecreated', 'timelastused', 'timepasswordchanged'],
  ),
  // 1Password 8 writes Favorite, Archived and Tags; 1Password 7's chosen columns are known only by
  // the file's name.
  '1password-csv': (columns, fileName) =>
    exactly(['title', 'password'], ONEPASSWORD_OPTIONAL)(columns, fileName) &&
    (['favorite', 'archived', 'tags'].some((c) => columns.has(c)) || /1password/i.test(fileName)),
  'safari-csv': exactly(['title', 'url', 'username', 'password'], ['notes', 'otpauth']),
  'chrome-csv': exactly(['name', 'url', 'username', 'password'], ['note']),
  // LastPass added totp in 2023.
  'lastpass-csv': exactly(
    ['url', 'username', 'password', 'extra', 'name', 'grouping', 'fav'],
    ['totp'],
  ),
  // One file for every item type; additional_urls and custom_fields came in 2023.
  'nordpass-csv': exactly(
    [
      'name',
      'url',
      'username',
      'password',
      'note',
      'cardholdername',
      'cardnumber',
      'cvc',
      'expirydate',
      'zipcode',
      'folder',
      'full_name',
      'phone_number',
      'email',
      'address1',
      'address2',
      'city',
      'country',
      'state',
      'type',
    ],
    ['additional_urls', 'pin', 'custom_fields'],
  ),
  // TOTP since KeePassXC 2.6, Icon and the two times since 2.7.
  'keepassxc-csv': exactly(
    ['group', 'title', 'username', 'password', 'url', 'notes'],
    ['totp', 'icon', 'last modified', 'created'],
  ),
  'roboform-csv': exactly(
    ['name', 'url', 'matchurl', 'login', 'pwd', 'note', 'folder'],
    ['rffieldsv2', 'rf_fields'],
  ),
  // Title, then Field and Value for as many fields as the longest item has, then Note.
  'enpass-csv': exactly(['title', 'field', 'value'], ['note']),
  // Keeper writes no header: its first record is read in place of one (keeper-csv.ts).
  'keeper-csv': looksLikeKeeper,
  // One of the CSV files of Dashlane's ZIP, each with its own header (dashlane-csv.ts).
  'dashlane-csv': (columns) => dashlaneFile(columns) !== undefined,
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

type JsonRule = (o: Record<string, unknown>) => boolean;

export const JSON_RULES: Partial<Record<ImportFormat, JsonRule>> = {
  'sealvault-export': (o) => o.format === EXPORT_FORMAT,
  'bitwarden-json-encrypted': (o) => o.encrypted === true && 'encKeyValidation_DO_NOT_EDIT' in o,
  // Every Bitwarden item has a numeric type (1 login ... 5 SSH key); Enpass's have template_type.
  'bitwarden-json': (o) =>
    o.encrypted !== true &&
    Array.isArray(o.items) &&
    (o.items.length > 0 || o.encrypted === false) &&
    o.items.every((i) => isObject(i) && typeof i.type === 'number' && !('template_type' in i)),
  'protonpass-json': (o) =>
    isObject(o.vaults) &&
    !('items' in o) &&
    Object.values(o.vaults).every((v) => isObject(v) && Array.isArray(v.items)),
  // Every Enpass item names the template it was made from.
  'enpass-json': (o) =>
    Array.isArray(o.items) &&
    o.items.length > 0 &&
    o.items.every((i) => isObject(i) && typeof i.template_type === 'string'),
  // Keeper's records list (with its shared folders beside it); each record an object with a
  // title, none of them another format's item.
  'keeper-json': (o) =>
    Array.isArray(o.records) &&
    !('items' in o) &&
    !('vaults' in o) &&
    (o.records.length > 0 || Array.isArray(o.shared_folders)) &&
    o.records.every((r) => isObject(r) && ('title' in r || '$type' in r)),
  // A list under one of Dashlane's own keys (AUTHENTIFIANT...), or only its newer list names.
  'dashlane-json': isDashlaneJson,
};

/** Every format whose rule a CSV header (lowercase names) matches. */
export function csvMatches(columns: readonly string[], fileName: string): ImportFormat[] {
  const set = new Set(columns.filter((c) => c !== ''));
  return (Object.entries(CSV_RULES) as [ImportFormat, CsvRule][])
    .filter(([, rule]) => rule(set, fileName))
    .map(([format]) => format);
}

/** Every format whose signature a parsed JSON file has. */
export function jsonMatches(json: unknown): ImportFormat[] {
  if (!isObject(json)) return [];
  return (Object.entries(JSON_RULES) as [ImportFormat, JsonRule][])
    .filter(([, rule]) => rule(json))
    .map(([format]) => format);
}
