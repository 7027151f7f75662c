// Bitwarden's JSON export (unencrypted, individual or organization) and its password-protected
// variant. The item shape follows Bitwarden's help article "Condition a Bitwarden .csv or .json"
// and its clients' export models: type 1 login, 2 secure note, 3 card, 4 identity, 5 SSH key;
// custom field type 0 text, 1 hidden, 2 boolean, 3 linked. [Note: sealvault extension]: our own
// export adds an item member `sealvault` ({ type, urls, totp }) for what Bitwarden has no place
// for (plain text and API key items, URLs of non-login items); Bitwarden ignores unknown members.
import { z } from 'zod';
import { i18n } from '../../../i18n/i18n.ts';
import { entryName, type ParseResult, type Skipped } from '../errors.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  ITEM_TYPES,
  type CustomField,
  type IdentityFields,
  stringEntries,
  type TransferItem,
} from '../model.ts';
import { checkSchema, nonEmpty, titleFor } from '../read.ts';
import { FAVORITE, REPROMPT } from './bitwarden-csv.ts';
import { list, text as lenientText } from './tolerant.ts';

// [Note: tolerant bitwarden json]: as tolerant as Bitwarden's own importer. A null stands for
// nothing wherever a string, a list or a list's element is expected (`"collectionIds": [null]`,
// `"fields": null`), numbers and booleans are read as their text, and only what cannot be read
// (an item without a numeric type, a list that is not a list) refuses the file, naming the entry
// and the field.
const str = lenientText;
const fieldSchema = z.looseObject({ name: str, value: str, type: z.number().int().nullish() });
const uriSchema = z.looseObject({ uri: str });
const identityKeys = Object.keys(emptyIdentity()) as (keyof IdentityFields)[];

const itemSchema = z.looseObject({
  type: z.number().int(),
  name: str,
  notes: str,
  folderId: str,
  collectionIds: list(z.string()),
  fields: list(fieldSchema),
  login: z
    .looseObject({
      username: str,
      password: str,
      totp: str,
      uris: list(uriSchema),
      fido2Credentials: list(z.unknown()),
    })
    .nullish(),
  card: z
    .looseObject({
      cardholderName: str,
      brand: str,
      number: str,
      expMonth: str,
      expYear: str,
      code: str,
    })
    .nullish(),
  identity: z.record(z.string(), str).nullish(),
  sshKey: z.looseObject({ privateKey: str, publicKey: str, keyFingerprint: str }).nullish(),
  attachments: list(z.looseObject({ fileName: str })),
  passwordHistory: list(z.unknown()),
  favorite: z.boolean().nullish(),
  reprompt: z.number().nullish(),
  sealvault: z
    .object({
      type: z.enum(ITEM_TYPES).optional(),
      urls: z.array(z.string()).optional(),
      totp: z.string().optional(),
    })
    .optional(),
});
const named = z.looseObject({ id: str, name: str });
export const bitwardenJsonSchema = z.looseObject({
  encrypted: z.literal(false).optional(),
  folders: list(named),
  collections: list(named),
  items: z.array(itemSchema),
});
type BwItem = z.infer<typeof itemSchema>;

const s = (v: string | null | undefined) => v ?? '';

function customFields(item: BwItem, entry: string, skipped: Skipped[]): CustomField[] {
  const out: CustomField[] = [];
  for (const f of item.fields ?? []) {
    if (f.type === 3) {
      skipped.push({
        entry,
        reason: i18n.t('Linked field "{{name}}" is not imported', { name: s(f.name) }),
      });
      continue;
    }
    out.push({ name: s(f.name), value: s(f.value), hidden: f.type === 1 });
  }
  return out;
}

function convert(item: BwItem, entry: string, folder: string | undefined, skipped: Skipped[]) {
  const firstUri = (item.login?.uris ?? []).find((u) => u.uri)?.uri ?? '';
  const base = {
    ...common(titleFor(s(item.name), firstUri)),
    notes: s(item.notes),
    customFields: customFields(item, entry, skipped),
    ...(folder !== undefined && { folder }),
  };
  const ext = item.sealvault;
  const extras = {
    ...(ext?.urls && { urls: ext.urls }),
    ...(ext?.totp !== undefined && { totp: ext.totp }),
  };
  for (const a of item.attachments ?? []) {
    skipped.push({
      entry,
      reason: i18n.t('Attachment "{{name}}" is not imported', { name: s(a.fileName) }),
    });
  }
  if (item.login?.fido2Credentials?.length) {
    skipped.push({ entry, reason: i18n.t('Passkeys are not imported') });
  }
  if (item.favorite === true) skipped.push({ entry, reason: i18n.t(FAVORITE) });
  if (item.reprompt === 1) skipped.push({ entry, reason: i18n.t(REPROMPT) });
  if (item.passwordHistory?.length) {
    skipped.push({ entry, reason: i18n.t('Password history is not imported') });
  }
  switch (item.type) {
    case 1: {
      const login = item.login;
      const urls = nonEmpty((login?.uris ?? []).map((u) => u.uri));
      const totp = login?.totp ? { totp: login.totp } : {};
      const fields = { username: s(login?.username), password: s(login?.password) };
      if (ext?.type === 'apikey') {
        return {
          ...base,
          urls,
          ...totp,
          type: 'apikey',
          apikey: { username: fields.username, key: fields.password },
        };
      }
      return { ...base, urls, ...totp, type: 'login', login: fields };
    }
    case 2:
      return { ...base, ...extras, type: ext?.type === 'text' ? 'text' : 'note' };
    case 3: {
      const card = { ...emptyCard() };
      for (const k of Object.keys(card) as (keyof typeof card)[]) card[k] = s(item.card?.[k]);
      return { ...base, ...extras, type: 'card', card };
    }
    case 4: {
      const identity = emptyIdentity();
      for (const k of identityKeys) identity[k] = s(item.identity?.[k]);
      return { ...base, ...extras, type: 'identity', identity };
    }
    case 5: {
      const k = item.sshKey;
      const ssh = {
        privateKey: s(k?.privateKey),
        publicKey: s(k?.publicKey),
        fingerprint: s(k?.keyFingerprint),
      };
      return { ...base, ...extras, type: 'ssh', ssh };
    }
    default:
      skipped.push({
        entry,
        reason: i18n.t('Bitwarden item type {{type}} is not supported', { type: item.type }),
      });
      return undefined;
  }
}

/** Items of an unencrypted Bitwarden JSON export (already parsed from its text). */
export function parseBitwardenJson(data: unknown, label = 'Bitwarden JSON'): ParseResult {
  const file = checkSchema(bitwardenJsonSchema, data, label, ['items'], (e) =>
    e && typeof e === 'object' ? (e as { name?: unknown }).name : undefined,
  );
  const folders = new Map((file.folders ?? []).map((f) => [f.id, f.name ?? undefined]));
  const collections = new Map((file.collections ?? []).map((c) => [c.id, c.name ?? undefined]));
  const skipped: Skipped[] = [];
  const items: TransferItem[] = [];
  file.items.forEach((item, i) => {
    const entry = entryName(i, item.name);
    const folder =
      (item.folderId != null ? folders.get(item.folderId) : undefined) ??
      (item.collectionIds?.[0] !== undefined ? collections.get(item.collectionIds[0]) : undefined);
    const converted = convert(item, entry, folder, skipped) as TransferItem | undefined;
    if (converted) items.push(converted);
  });
  return { format: 'bitwarden-json', items, skipped };
}

const orNull = (v: string) => (v === '' ? null : v);

/** One item as Bitwarden's export writes it, with our extension where Bitwarden has no place. */
function toBitwarden(item: TransferItem, folderId: string | null) {
  const fields = item.customFields.map((f) => ({
    name: f.name,
    value: f.value,
    type: f.hidden ? 1 : 0,
    linkedId: null,
  }));
  const base = {
    id: globalThis.crypto.randomUUID(),
    organizationId: null,
    folderId,
    name: item.title,
    notes: orNull(item.notes),
    favorite: false,
    reprompt: 0,
    fields,
    collectionIds: null,
  };
  const ext = (type?: string) => {
    const e = {
      ...(type && { type }),
      ...(item.urls.length > 0 && { urls: item.urls }),
      ...(item.totp !== undefined && { totp: item.totp }),
    };
    return Object.keys(e).length ? { sealvault: e } : {};
  };
  const login = (username: string, password: string) => ({
    uris: item.urls.map((uri) => ({ match: null, uri })),
    username: orNull(username),
    password: orNull(password),
    totp: item.totp ?? null,
    fido2Credentials: [],
  });
  switch (item.type) {
    case 'login':
      return { ...base, type: 1, login: login(item.login.username, item.login.password) };
    case 'apikey':
      return {
        ...base,
        type: 1,
        login: login(item.apikey.username, item.apikey.key),
        sealvault: { type: 'apikey' },
      };
    case 'note':
    case 'text':
      return {
        ...base,
        type: 2,
        secureNote: { type: 0 },
        ...ext(item.type === 'text' ? 'text' : undefined),
      };
    case 'card': {
      const card = Object.fromEntries(stringEntries(item.card).map(([k, v]) => [k, orNull(v)]));
      return { ...base, type: 3, card, ...ext() };
    }
    case 'identity': {
      const identity = Object.fromEntries(
        stringEntries(item.identity).map(([k, v]) => [k, orNull(v)]),
      );
      return { ...base, type: 4, identity, ...ext() };
    }
    case 'ssh':
      return {
        ...base,
        type: 5,
        sshKey: {
          privateKey: item.ssh.privateKey,
          publicKey: item.ssh.publicKey,
          keyFingerprint: item.ssh.fingerprint,
        },
        ...ext(),
      };
  }
}

/** The object of an unencrypted individual Bitwarden JSON export holding `items`. */
export function toBitwardenExport(items: readonly TransferItem[]) {
  const folderIds = new Map<string, string>();
  for (const item of items) {
    if (item.folder !== undefined && !folderIds.has(item.folder)) {
      folderIds.set(item.folder, globalThis.crypto.randomUUID());
    }
  }
  return {
    encrypted: false,
    folders: [...folderIds].map(([name, id]) => ({ id, name })),
    items: items.map((item) =>
      toBitwarden(item, item.folder === undefined ? null : (folderIds.get(item.folder) ?? null)),
    ),
  };
}
