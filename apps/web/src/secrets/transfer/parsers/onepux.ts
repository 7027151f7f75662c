// 1Password's 1PUX export (1Password's developer documentation, "1PUX format"): a zip holding
// `export.attributes`, `export.data` (JSON: accounts → vaults → items) and `files/` for
// attachments. An item has a categoryUuid (001 Login, 002 Credit Card, 003 Secure Note,
// 004 Identity, 005 Password, 006 Document, 112 API Credential, 114 SSH Key, ...), `overview`
// (title, url(s), tags) and `details` (loginFields by designation, notesPlain, sections of fields
// whose `value` is one typed member: string, concealed, totp, email, url, date, monthYear,
// address, sshKey, file...). Other categories (bank account, passport, server...) become notes
// holding their fields. The vault's name becomes the folder.
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
import { checkSchema, decodeText, readImportZip, readJson } from '../read.ts';
import { list, text as lenientText } from './tolerant.ts';

const LABEL = '1Password 1PUX';
// Nulls where lists and strings are expected are read as nothing ([Note: tolerant bitwarden json]).
const str = lenientText;
const sectionField = z.looseObject({
  title: str,
  id: str,
  value: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? {}),
});
const itemSchema = z.looseObject({
  uuid: str,
  categoryUuid: z.string(),
  state: str,
  overview: z.looseObject({
    title: str,
    url: str,
    urls: list(z.looseObject({ url: str })),
    tags: list(z.string()),
  }),
  details: z.looseObject({
    loginFields: list(z.looseObject({ value: str, name: str, designation: str, fieldType: str })),
    notesPlain: str,
    password: str,
    sections: list(z.looseObject({ title: str, fields: list(sectionField) })),
    documentAttributes: z.looseObject({ fileName: str }).nullish(),
  }),
});
const dataSchema = z.looseObject({
  accounts: z.array(
    z.looseObject({
      vaults: z.array(
        z.looseObject({ attrs: z.looseObject({ name: str }), items: z.array(itemSchema) }),
      ),
    }),
  ),
});
type Item = z.infer<typeof itemSchema>;

/** A section field's value as text, and what kind it is. */
function valueOf(value: Record<string, unknown>): { kind: string; text: string; raw: unknown } {
  const [kind, raw] = Object.entries(value)[0] ?? ['string', ''];
  if (raw === null || raw === undefined) return { kind, text: '', raw };
  if (typeof raw === 'string') return { kind, text: raw, raw };
  if (typeof raw === 'number') {
    if (kind === 'date')
      return { kind, text: new Date(raw * 1000).toISOString().slice(0, 10), raw };
    if (kind === 'monthYear') return { kind, text: `${raw % 100}/${Math.floor(raw / 100)}`, raw };
    return { kind, text: String(raw), raw };
  }
  if (kind === 'email' && typeof raw === 'object') {
    const address = (raw as { email_address?: unknown }).email_address;
    return { kind, text: typeof address === 'string' ? address : '', raw };
  }
  if (kind === 'address' && typeof raw === 'object') {
    const a = raw as Record<string, unknown>;
    const parts = ['street', 'city', 'state', 'zip', 'country'].map((k) => a[k]);
    return { kind, text: parts.filter((p) => typeof p === 'string' && p).join(', '), raw };
  }
  return { kind, text: JSON.stringify(raw), raw };
}

const IDENTITY_IDS: Record<string, keyof IdentityFields> = {
  firstname: 'firstName',
  initial: 'middleName',
  lastname: 'lastName',
  company: 'company',
  email: 'email',
  defphone: 'phone',
  username: 'username',
};

function convert(item: Item, folder: string | undefined, entry: string, skipped: Skipped[]) {
  const { overview, details } = item;
  const title = overview.title || overview.url || 'Untitled';
  const urls = (overview.urls ?? []).map((u) => u.url ?? '').filter((u) => u !== '');
  if (urls.length === 0 && overview.url) urls.push(overview.url);
  const customFields: CustomField[] = [];
  let totp: string | undefined;
  const card = emptyCard();
  const identity = emptyIdentity();
  const ssh = { privateKey: '', publicKey: '', fingerprint: '' };
  const apikey = { username: '', key: '' };
  const login = { username: '', password: details.password ?? '' };
  const category = item.categoryUuid;
  if (category === '006' || details.documentAttributes) {
    const name = details.documentAttributes?.fileName ?? title;
    skipped.push({ entry, reason: i18n.t('Document "{{name}}" is not imported', { name }) });
    return undefined;
  }
  for (const f of details.loginFields ?? []) {
    const value = f.value ?? '';
    if (f.designation === 'username') login.username = value;
    else if (f.designation === 'password') login.password = value;
    else if (value !== '') {
      customFields.push({ name: f.name ?? '', value, hidden: f.fieldType === 'P' });
    }
  }
  for (const section of details.sections ?? []) {
    for (const f of section.fields ?? []) {
      const { kind, text, raw } = valueOf(f.value);
      const id = f.id ?? '';
      if (kind === 'file') {
        const name = (raw as { fileName?: string } | null)?.fileName ?? f.title ?? '';
        skipped.push({ entry, reason: i18n.t('Attachment "{{name}}" is not imported', { name }) });
        continue;
      }
      if (text === '') continue;
      if (kind === 'totp' && totp === undefined) {
        totp = text;
        continue;
      }
      if (kind === 'sshKey' && category === '114') {
        const k = raw as { privateKey?: string; metadata?: Record<string, string> };
        ssh.privateKey = k.privateKey ?? '';
        ssh.publicKey = k.metadata?.publicKey ?? '';
        ssh.fingerprint = k.metadata?.fingerprint ?? '';
        continue;
      }
      if (category === '002') {
        const cardKey = (
          { cardholder: 'cardholderName', type: 'brand', ccnum: 'number', cvv: 'code' } as const
        )[id];
        if (cardKey) {
          card[cardKey] = text;
          continue;
        }
        if (id === 'expiry' && typeof raw === 'number') {
          card.expMonth = String(raw % 100);
          card.expYear = String(Math.floor(raw / 100));
          continue;
        }
      }
      if (category === '004') {
        const key = IDENTITY_IDS[id];
        if (key && identity[key] === '') {
          identity[key] = text;
          continue;
        }
        if (kind === 'address' && identity.address1 === '') {
          const a = raw as Record<string, string | undefined>;
          identity.address1 = a.street ?? '';
          identity.city = a.city ?? '';
          identity.state = a.state ?? '';
          identity.postalCode = a.zip ?? '';
          identity.country = a.country ?? '';
          continue;
        }
      }
      if (category === '112') {
        if (id === 'username') {
          apikey.username = text;
          continue;
        }
        if (id === 'credential') {
          apikey.key = text;
          continue;
        }
        if (id === 'hostname') {
          urls.push(text);
          continue;
        }
      }
      // A second TOTP is a secret too.
      const hidden = kind === 'concealed' || kind === 'totp';
      customFields.push({ name: f.title || id, value: text, hidden });
    }
  }
  if ((details.passwordHistory as unknown[] | undefined)?.length) {
    skipped.push({ entry, reason: i18n.t('Password history is not imported') });
  }
  const tags = overview.tags ?? [];
  if (tags.length) customFields.push({ name: 'Tags', value: tags.join(', '), hidden: false });
  const base = {
    ...common(title),
    notes: details.notesPlain ?? '',
    urls,
    customFields,
    ...(totp !== undefined && { totp }),
    ...(folder !== undefined && { folder }),
  };
  switch (category) {
    case '001':
    case '005':
      return { ...base, type: 'login', login } as const;
    case '002':
      return { ...base, type: 'card', card } as const;
    case '004':
      return { ...base, type: 'identity', identity } as const;
    case '112':
      return { ...base, type: 'apikey', apikey } as const;
    case '114':
      return { ...base, type: 'ssh', ssh } as const;
    default:
      return { ...base, type: 'note' } as const;
  }
}

export function parseOnePux(bytes: Uint8Array): ParseResult {
  // Attachments (files/) are not imported, so they are never inflated.
  const { files } = readImportZip(
    bytes,
    i18n.t('This {{label}} file is not a readable zip archive.', { label: LABEL }),
    (name) => name === 'export.data',
  );
  const data = files.get('export.data');
  if (!data) throw malformed(i18n.t('This {{label}} file has no export.data.', { label: LABEL }));
  const json = readJson(decodeText(data, LABEL), LABEL);
  const file = checkSchema(dataSchema, json, LABEL, ['items'], (e) =>
    e && typeof e === 'object'
      ? (e as { overview?: { title?: unknown } }).overview?.title
      : undefined,
  );
  const items: TransferItem[] = [];
  const skipped: Skipped[] = [];
  let n = 0;
  for (const account of file.accounts) {
    for (const vault of account.vaults) {
      const folder = vault.attrs.name ?? undefined;
      for (const item of vault.items) {
        const entry = entryName(n++, item.overview.title);
        const converted = convert(item, folder, entry, skipped);
        if (converted) items.push(converted);
      }
    }
  }
  return { format: '1password-1pux', items, skipped };
}
