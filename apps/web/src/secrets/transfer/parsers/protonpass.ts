// Proton Pass's unencrypted export (Proton's help, "How to export data from Proton Pass"): a zip
// holding `Proton Pass/data.json`, or that JSON alone: { version, userId, encrypted: false,
// vaults: { <shareId>: { name, items: [{ itemId, state, data: { metadata: { name, note },
// extraFields: [{ fieldName, type: text|hidden|totp|timestamp, data }], type,
// content } }] } } }. Item types: login (itemEmail, itemUsername or the older username, password,
// urls, totpUri, passkeys), note, creditCard, identity, sshKey, wifi, custom, alias. An alias is
// an e-mail forwarding address, not a stored secret, and is skipped; so are trashed items
// (state 2). The PGP-encrypted export must be exported again unencrypted. Every other value lands
// in a field or a custom field (protonpass-fields.ts).
import { z } from 'zod';
import { i18n, msg } from '../../../i18n/i18n.ts';
import { entryName, ImportError, malformed, type ParseResult, type Skipped } from '../errors.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  type CustomField,
  type IdentityFields,
  type TransferItem,
} from '../model.ts';
import { checkSchema, decodeText, readImportZip, readJson } from '../read.ts';
import { asCustom, protonFields, restFields } from './protonpass-fields.ts';

const LABEL = msg('Proton Pass export');
const itemSchema = z.looseObject({
  state: z.number().int().nullish(),
  data: z.looseObject({
    metadata: z.looseObject({ name: z.string(), note: z.string().nullish() }),
    extraFields: z
      .array(
        z.looseObject({
          fieldName: z.string(),
          type: z.string(),
          data: z.unknown(),
        }),
      )
      .nullish(),
    type: z.string(),
    content: z.record(z.string(), z.unknown()).nullish(),
  }),
  files: z.array(z.looseObject({ name: z.string().nullish() })).nullish(),
  pinned: z.boolean().nullish(),
});
export const protonPassSchema = z.looseObject({
  encrypted: z.literal(false).optional(),
  vaults: z.record(
    z.string(),
    z.looseObject({ name: z.string().nullish(), items: z.array(itemSchema) }),
  ),
});
type Item = z.infer<typeof itemSchema>;

const IDENTITY: Record<string, keyof IdentityFields> = {
  firstName: 'firstName',
  middleName: 'middleName',
  lastName: 'lastName',
  email: 'email',
  phoneNumber: 'phone',
  organization: 'company',
  company: 'company',
  streetAddress: 'address1',
  city: 'city',
  stateOrProvince: 'state',
  zipOrPostalCode: 'postalCode',
  countryOrRegion: 'country',
  socialSecurityNumber: 'ssn',
  passportNumber: 'passportNumber',
  licenseNumber: 'licenseNumber',
};

function convert(item: Item, folder: string | undefined, entry: string, skipped: Skipped[]) {
  const { metadata, type } = item.data;
  const content = item.data.content ?? {};
  const get = (k: string) => (typeof content[k] === 'string' ? content[k] : '');
  if (item.state === 2) {
    skipped.push({ entry, reason: i18n.t('In the trash') });
    return undefined;
  }
  if (type === 'alias') {
    skipped.push({
      entry,
      reason: i18n.t('Aliases (e-mail forwarding addresses) are not imported'),
    });
    return undefined;
  }
  if (item.pinned === true)
    skipped.push({ entry, reason: i18n.t('The pinned mark is not imported') });
  for (const f of item.files ?? []) {
    skipped.push({
      entry,
      reason: i18n.t('Attachment "{{name}}" is not imported', { name: f.name ?? '' }),
    });
  }
  const customFields: CustomField[] = [];
  let totp = get('totpUri') || undefined;
  // A TOTP field beyond the first one the item shows stays a (hidden) custom field.
  for (const f of protonFields(item.data.extraFields)) {
    if (f.type === 'totp' && totp === undefined && f.value !== '') totp = f.value;
    else customFields.push(asCustom(f));
  }
  const base = {
    ...common(metadata.name),
    notes: metadata.note ?? '',
    customFields,
    ...(totp !== undefined && { totp }),
    ...(folder !== undefined && { folder }),
  };
  /** Content values no typed field took, kept as custom fields. */
  const keepRest = (taken: string[], hidden: string[] = []) => {
    customFields.push(...restFields(content, taken, hidden));
  };
  switch (type) {
    case 'login': {
      const urls = Array.isArray(content.urls)
        ? content.urls.filter((u): u is string => typeof u === 'string' && u !== '')
        : [];
      const email = get('itemEmail');
      const username = get('itemUsername') || get('username') || email;
      if (email !== '' && email !== username) {
        customFields.push({ name: 'E-mail', value: email, hidden: false });
      }
      if (Array.isArray(content.passkeys) && content.passkeys.length > 0) {
        skipped.push({ entry, reason: i18n.t('Passkeys are not imported') });
      }
      keepRest([
        'itemEmail',
        'itemUsername',
        'username',
        'password',
        'urls',
        'totpUri',
        'passkeys',
      ]);
      return {
        ...base,
        urls,
        type: 'login',
        login: { username, password: get('password') },
      } as const;
    }
    case 'creditCard': {
      const card = emptyCard();
      card.cardholderName = get('cardholderName');
      card.number = get('number');
      card.code = get('verificationNumber');
      const exp = /^(\d{4})-(\d{1,2})$/.exec(get('expirationDate'));
      if (exp) {
        card.expYear = exp[1] ?? '';
        card.expMonth = String(Number(exp[2]));
      }
      keepRest(['cardholderName', 'number', 'verificationNumber', 'expirationDate'], ['pin']);
      return { ...base, type: 'card', card } as const;
    }
    case 'identity': {
      const identity = emptyIdentity();
      const used: string[] = [];
      for (const [from, to] of Object.entries(IDENTITY)) {
        if (identity[to] === '' && get(from) !== '') {
          identity[to] = get(from);
          used.push(from);
        }
      }
      // A second value for one field (organization and company) stays a custom field.
      keepRest(used);
      return { ...base, type: 'identity', identity } as const;
    }
    case 'sshKey':
      keepRest(['privateKey', 'publicKey']);
      return {
        ...base,
        type: 'ssh',
        ssh: { privateKey: get('privateKey'), publicKey: get('publicKey'), fingerprint: '' },
      } as const;
    case 'note':
      keepRest([]);
      return { ...base, type: 'note' } as const;
    default:
      // wifi, custom and future types: their strings as fields of a note.
      keepRest([], ['password']);
      return { ...base, type: 'note' } as const;
  }
}

export function parseProtonPassJson(data: unknown): ParseResult {
  if (data && typeof data === 'object' && (data as { encrypted?: unknown }).encrypted === true) {
    throw new ImportError(
      'UNSUPPORTED',
      i18n.t(
        'This Proton Pass export is encrypted. Export it again from Proton Pass without encryption.',
      ),
    );
  }
  const file = checkSchema(protonPassSchema, data, LABEL, ['items'], (e) =>
    e && typeof e === 'object'
      ? (e as { data?: { metadata?: { name?: unknown } } }).data?.metadata?.name
      : undefined,
  );
  const items: TransferItem[] = [];
  const skipped: Skipped[] = [];
  let n = 0;
  for (const vault of Object.values(file.vaults)) {
    for (const item of vault.items) {
      const entry = entryName(n++, item.data.metadata.name);
      const converted = convert(item, vault.name ?? undefined, entry, skipped);
      if (converted) items.push(converted);
    }
  }
  return { format: 'protonpass-json', items, skipped };
}

/** The data.json of a Proton Pass export zip. */
export function protonPassZipJson(bytes: Uint8Array): unknown {
  const { files } = readImportZip(
    bytes,
    i18n.t('This Proton Pass export is not a readable zip archive.'),
    (name) => name.endsWith('data.json'),
  );
  const data = files.values().next().value;
  if (!data) throw malformed(i18n.t('This Proton Pass export has no data.json.'));
  return readJson(decodeText(data, LABEL), LABEL);
}
