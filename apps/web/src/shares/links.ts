// Share links (issue 29, ADR 0012): the link's text and the options' words. Pure.
import type { ShareKdfText } from '@sealvault/crypto';
import type { ShareExpiry, ShareKdf } from '@sealvault/protocol';
import { formatNumber } from '../i18n/format.ts';
import { i18n, msg } from '../i18n/i18n.ts';

/** `PUBLIC_URL/s/<id>#<secret>`: the secret only in the fragment, which is never sent. */
export const shareUrl = (origin: string, id: string, secret: string) =>
  `${origin}/s/${id}#${secret}`;

/** The secret of the page's fragment ("#<43 base64url characters>"), or null. */
export function secretOf(hash: string): string | null {
  const secret = hash.startsWith('#') ? hash.slice(1) : hash;
  return /^[A-Za-z0-9_-]{43}$/.test(secret) ? secret : null;
}

const toStd = (s: string) => {
  const b = s.replace(/-/g, '+').replace(/_/g, '/');
  return b + '='.repeat((4 - (b.length % 4)) % 4);
};
const toUrl = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The crypto's Argon2id parameters and salt, as the server keeps them, and back. */
export const kdfToWire = (k: ShareKdfText): ShareKdf => ({
  salt: toStd(k.salt),
  memory_kib: k.m,
  iterations: k.t,
  parallelism: k.p,
});
export const kdfFromWire = (k: ShareKdf): ShareKdfText => ({
  alg: 'argon2id',
  m: k.memory_kib,
  t: k.iterations,
  p: k.parallelism,
  salt: toUrl(k.salt),
});

export const EXPIRY_LABELS: Record<ShareExpiry, string> = {
  '1h': msg('1 hour'),
  '1d': msg('1 day'),
  '7d': msg('7 days'),
  '30d': msg('30 days'),
};

/** "Expires in 3 days", "Expires in 5 hours", "Expired" from the expiry and now (in the UI's language). */
export function expiresIn(expiresAt: string, now = Date.now()): string {
  const ms = new Date(expiresAt).getTime() - now;
  if (ms <= 0) return i18n.t('Expired');
  const hours = Math.round(ms / 3_600_000);
  if (hours < 1) return i18n.t('Expires in less than an hour');
  if (hours < 48)
    return hours === 1
      ? i18n.t('Expires in {{count}} hour', { count: formatNumber(hours) })
      : i18n.t('Expires in {{count}} hours', { count: formatNumber(hours) });
  const days = Math.round(hours / 24);
  return i18n.t('Expires in {{count}} days', { count: formatNumber(days) });
}

/** "3 opens left", "1 open left", "No limit on opens" (in the UI's language). */
export const opensLeft = (left: number | null) =>
  left === null
    ? i18n.t('No limit on opens')
    : left === 1
      ? i18n.t('{{count}} open left', { count: formatNumber(left) })
      : i18n.t('{{count}} opens left', { count: formatNumber(left) });
