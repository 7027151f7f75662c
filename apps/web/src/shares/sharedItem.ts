// What a secret's link carries (issue 29): its title and every field it has a value in, as text
// (the recipient's card shows each with a copy button, the password masked). Pure.
import type { SecretItem } from '@sealvault/crypto';
import type { Secret } from '../secrets/model.ts';

export function sharedItem(s: Secret): SecretItem {
  const item: SecretItem = { title: s.title };
  const add = (key: string, value: string | undefined) => {
    if (value && value.trim() !== '') item[key] = value;
  };
  add('username', s.username);
  add('password', s.password);
  add('url', s.url);
  (s.urls ?? []).forEach((u, i) => add(`Website ${i + 2}`, u));
  add('One-time code (otpauth)', s.totp);
  for (const f of s.fields ?? []) add(f.name, f.value);
  add('notes', s.notes);
  return item;
}
