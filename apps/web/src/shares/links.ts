// Share links (issue 29, ADR 0012): the link's text and the options' words. Pure.
import type { ShareKdfText } from '@sealvault/crypto';
import type { ShareExpiry, ShareKdf } from '@sealvault/protocol';

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
  '1h': '1 hour',
  '1d': '1 day',
  '7d': '7 days',
  '30d': '30 days',
};

/** "Expires in 3 days", "Expires in 5 hours", "Expired" from the expiry and now. */
export function expiresIn(expiresAt: string, now = Date.now()): string {
  const ms = new Date(expiresAt).getTime() - now;
  if (ms <= 0) return 'Expired';
  const hours = Math.round(ms / 3_600_000);
  if (hours < 1) return 'Expires in less than an hour';
  if (hours < 48) return `Expires in ${hours} hour${hours === 1 ? '' : 's'}`;
  const days = Math.round(hours / 24);
  return `Expires in ${days} days`;
}

/** "3 opens left", "1 open left", "No limit on opens". */
export const opensLeft = (left: number | null) =>
  left === null ? 'No limit on opens' : `${left} open${left === 1 ? '' : 's'} left`;
