// What a secret holds once decrypted (docs/product.md §3 "Secret"), the form rules of docs/product.md §5, and search.
import { z } from 'zod';
import { msg } from '../i18n/i18n.ts';
import type {
  ApiKeyFields,
  CardFields,
  CustomField,
  IdentityFields,
  ItemType,
  SshFields,
} from './transfer/model.ts';

export interface SecretFields {
  title: string;
  username: string;
  password: string;
  url: string;
  notes: string;
}

/**
 * What an item holds beyond the spec's five fields (issue 20; itemFormat.ts is the stored JSON).
 * Absent on items written before it.
 */
export interface SecretExtras {
  type?: ItemType;
  /** Further URLs, after `url`. */
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

/** A decrypted item: the spec's fields (always there, '' when unused) and the extras. */
export type SecretData = SecretFields & SecretExtras;

export interface Secret extends SecretData {
  id: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

export const emptyFields: SecretFields = {
  title: '',
  username: '',
  password: '',
  url: '',
  notes: '',
};

export const sitePasswordSchema = z.object({
  title: z.string().trim().min(1, msg('Title is required')).max(200),
  username: z.string().max(500),
  password: z.string().max(1000),
  url: z.string().trim().max(2000),
  notes: z.string().max(20_000),
});

export const plainTextSchema = z.object({
  title: z.string().trim().min(1, msg('Title is required for plain text secrets')).max(200),
  notes: z.string().trim().min(1, msg('Content is required for plain text secrets')).max(20_000),
});

/** Spec §2: a secret with notes but no username or password is displayed as plain text. */
export const isPlainText = (s: SecretFields): boolean =>
  s.notes !== '' && s.username === '' && s.password === '';

/** An item's type; one written before issue 20 has none and reads as the spec shows it. */
export const secretType = (s: SecretData): ItemType =>
  s.type ?? (isPlainText(s) ? 'text' : 'login');

/**
 * How an item's card shows it: its type, except that a login with notes and no username,
 * password or one-time code shows as plain text, its notes masked as `Content` (product.md §2
 * "Secrets manager", issue 25). Its form stays the login's, so nothing it holds is lost.
 */
export const cardType = (s: SecretData): ItemType => {
  const type = secretType(s);
  return type === 'login' && isPlainText(s) && !s.totp ? 'text' : type;
};

/** Every URL of an item, the first being `url`. */
export const allUrls = (s: SecretData): string[] =>
  [s.url, ...(s.urls ?? [])].filter((u) => u !== '');

/**
 * Spec §5: search matches title, username or url, case-insensitively; also an item's further
 * URLs and the username of an API key or identity.
 */
export function matches(s: SecretData, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return [
    s.title,
    s.username,
    ...allUrls(s),
    s.apikey?.username ?? '',
    s.identity?.username ?? '',
  ].some((f) => f.toLowerCase().includes(q));
}
