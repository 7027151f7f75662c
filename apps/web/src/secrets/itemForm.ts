// The add/edit form's values for every item type (issue 20), their rules (zod, the spec's
// messages for the site password and plain text), and the item they make (itemFormat.ts).
import { z } from 'zod';
import {
  allUrls,
  plainTextSchema,
  secretType,
  sitePasswordSchema,
  type SecretData,
} from './model.ts';
import { secretDataFromTransfer } from './itemFormat.ts';
import { parseTotp } from './tools/totp.ts';
import { msg } from '../i18n/i18n.ts';
import {
  common,
  emptyCard,
  emptyIdentity,
  type ApiKeyFields,
  type CardFields,
  type CustomField,
  type IdentityFields,
  type ItemType,
  type SshFields,
  type TransferItem,
} from './transfer/model.ts';

/** The forms: the spec's two ('site' is a login, 'plain' plain text) and the other item types. */
export type FormKind = 'site' | 'plain' | 'note' | 'card' | 'identity' | 'ssh' | 'apikey';

export const KIND_NAMES: Record<FormKind, string> = {
  site: msg('Site Password'),
  plain: msg('Plain Text'),
  note: msg('Secure Note'),
  card: msg('Payment Card'),
  identity: msg('Identity'),
  ssh: msg('SSH Key'),
  apikey: msg('API Key'),
};

export interface FormValues {
  title: string;
  username: string;
  password: string;
  url: string;
  notes: string;
  /** A login's further URLs (react-hook-form's field arrays hold objects). */
  moreUrls: { value: string }[];
  totp: string;
  fields: CustomField[];
  card: CardFields;
  identity: IdentityFields;
  ssh: SshFields;
  apikey: ApiKeyFields;
}

export const kindOfType = (t: ItemType): FormKind =>
  t === 'login' ? 'site' : t === 'text' ? 'plain' : t;

export const kindOf = (s: SecretData): FormKind => kindOfType(secretType(s));

export function valuesOf(s: SecretData | null): FormValues {
  const urls = s ? allUrls(s) : [];
  return {
    title: s?.title ?? '',
    username: s?.username ?? '',
    password: s?.password ?? '',
    url: urls[0] ?? '',
    notes: s?.notes ?? '',
    moreUrls: urls.slice(1).map((value) => ({ value })),
    totp: s?.totp ?? '',
    fields: (s?.fields ?? []).map((f) => ({ ...f })),
    card: { ...emptyCard(), ...s?.card },
    identity: { ...emptyIdentity(), ...s?.identity },
    ssh: { privateKey: '', publicKey: '', fingerprint: '', ...s?.ssh },
    apikey: { username: '', key: '', ...s?.apikey },
  };
}

/** The item a form's values make; empty URLs and unnamed empty custom fields are dropped. */
export function itemFromValues(kind: FormKind, v: FormValues): TransferItem {
  const base = {
    ...common(v.title.trim()),
    notes: v.notes,
    customFields: v.fields.filter((f) => f.name.trim() !== '' || f.value !== ''),
  };
  const urls = [v.url, ...v.moreUrls.map((u) => u.value)].map((u) => u.trim()).filter(Boolean);
  switch (kind) {
    case 'site':
      return {
        ...base,
        type: 'login',
        login: { username: v.username, password: v.password },
        urls,
        ...(v.totp.trim() ? { totp: v.totp.trim() } : {}),
      };
    case 'plain':
      // The spec's plain text: title and content, nothing else.
      return { ...common(v.title.trim()), notes: v.notes, type: 'text' };
    case 'note':
      return { ...base, type: 'note' };
    case 'card':
      return {
        ...base,
        type: 'card',
        card: { ...v.card, number: v.card.number.replace(/[\s-]/g, '') },
      };
    case 'identity':
      return { ...base, type: 'identity', identity: v.identity };
    case 'ssh':
      return { ...base, type: 'ssh', ssh: v.ssh };
    case 'apikey':
      return { ...base, type: 'apikey', apikey: v.apikey, urls };
  }
}

/** What a form saves: the contract's JSON (itemFormat.ts) as the app holds it. */
export const dataFromValues = (kind: FormKind, v: FormValues): SecretData =>
  secretDataFromTransfer(itemFromValues(kind, v));

// Texts marked as ours (conventions.md, "Errors and messages").
export const FORM_ERRORS = {
  title: msg('Title is required'),
  cardNumber: msg('A card number has 12 to 19 digits.'),
  expMonth: msg('Month from 1 to 12.'),
  expYear: msg('A four-digit year.'),
  code: msg('A security code has 3 or 4 digits.'),
  sshKey: msg('Paste or generate a key.'),
  apiKey: msg('The key is required.'),
  fieldName: msg('Name this field.'),
} as const;

const title = z.string().trim().min(1, FORM_ERRORS.title).max(200);
const fieldsSchema = z
  .array(z.object({ name: z.string().max(200), value: z.string().max(5000), hidden: z.boolean() }))
  .max(100)
  .superRefine((fields, ctx) => {
    fields.forEach((f, i) => {
      if (f.name.trim() === '' && f.value !== '') {
        ctx.addIssue({ code: 'custom', message: FORM_ERRORS.fieldName, path: [i, 'name'] });
      }
    });
  });
const notes = z.string().max(20_000);
const optional = (re: RegExp, message: string) =>
  z.string().refine((s) => s.trim() === '' || re.test(s.trim()), message);

const schemas: Record<FormKind, z.ZodType> = {
  site: sitePasswordSchema.extend({
    moreUrls: z.array(z.object({ value: z.string().trim().max(2000) })).max(50),
    totp: z.string().superRefine((t, ctx) => {
      if (t.trim() === '') return;
      const r = parseTotp(t);
      if (r.error) ctx.addIssue({ code: 'custom', message: r.error });
    }),
    fields: fieldsSchema,
  }),
  plain: plainTextSchema,
  note: z.object({ title, notes, fields: fieldsSchema }),
  card: z.object({
    title,
    notes,
    fields: fieldsSchema,
    card: z.object({
      cardholderName: z.string().max(200),
      brand: z.string().max(100),
      number: optional(/^(\d[\s-]?){12,19}$/, FORM_ERRORS.cardNumber),
      expMonth: optional(/^(0?[1-9]|1[0-2])$/, FORM_ERRORS.expMonth),
      expYear: optional(/^\d{4}$/, FORM_ERRORS.expYear),
      code: optional(/^\d{3,4}$/, FORM_ERRORS.code),
    }),
  }),
  identity: z.object({
    title,
    notes,
    fields: fieldsSchema,
    identity: z.record(z.string(), z.string().max(500)),
  }),
  ssh: z.object({
    title,
    notes,
    fields: fieldsSchema,
    ssh: z
      .object({ privateKey: z.string().max(20_000), publicKey: z.string().max(20_000) })
      .refine((k) => k.privateKey.trim() !== '' || k.publicKey.trim() !== '', {
        message: FORM_ERRORS.sshKey,
        path: ['publicKey'],
      }),
  }),
  apikey: z.object({
    title,
    notes,
    fields: fieldsSchema,
    url: z.string().trim().max(2000),
    apikey: z.object({
      username: z.string().max(500),
      key: z.string().min(1, FORM_ERRORS.apiKey).max(20_000),
    }),
  }),
};

export const formSchema = (kind: FormKind): z.ZodType => schemas[kind];
