// What a secret holds once decrypted (docs/product.md §3 "Secret"), the form rules of docs/product.md §5, and search.
import { z } from 'zod';

export interface SecretFields {
  title: string;
  username: string;
  password: string;
  url: string;
  notes: string;
}

export interface Secret extends SecretFields {
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
  title: z.string().trim().min(1, 'Title is required').max(200),
  username: z.string().max(500),
  password: z.string().max(1000),
  url: z.string().trim().max(2000),
  notes: z.string().max(20_000),
});

export const plainTextSchema = z.object({
  title: z.string().trim().min(1, 'Title is required for plain text secrets').max(200),
  notes: z.string().trim().min(1, 'Content is required for plain text secrets').max(20_000),
});

/** Spec §2: a secret with notes but no username or password is displayed as plain text. */
export const isPlainText = (s: SecretFields): boolean =>
  s.notes !== '' && s.username === '' && s.password === '';

/** Spec §5: search matches title, username or url, case-insensitively. */
export function matches(s: SecretFields, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return [s.title, s.username, s.url].some((f) => f.toLowerCase().includes(q));
}
