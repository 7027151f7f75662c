// [Note: known devices] The per-account counter of the password attempt budget (attempts.ts) let
// anyone who knows an e-mail keep its owner from signing in: ten wrong passwords a minute, from any
// address, refused the right one from the owner's usual address too (issue 25, finding 3). So a
// browser that has completed a sign-in to an account carries a signed cookie that says so, and on
// that account its attempts are counted against the device instead of the account:
// - the cookie (`sealvault.known_device`, `__Secure-` on https; HttpOnly, SameSite=Lax, Path=/,
//   180 days) holds, for up to 5 accounts, the user id, a random device id and when the device
//   last signed in, HMAC-SHA256'd under a key derived from the Better Auth secret. It names no
//   secret: ids and a time only, and without the key it cannot be made or moved to another account;
// - it is set (renewed) whenever a sign-in starts a session: a password sign-in, the code step
//   that completes one with two-factor on, a Google sign-in, a password change; never while a
//   second factor is still pending;
// - an attempt on an account the device knows counts against `device:<id>` and the client address,
//   so a stolen cookie copied to many addresses still gets MAX guesses per window in all; any other
//   attempt counts against the account and the address, as before. A device that never signed in
//   to the account still waits while someone guesses at it; the owner's known devices do not.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie's name after Better Auth's prefix (createAuthCookie adds `sealvault.`). */
export const KNOWN_DEVICE_COOKIE = 'known_device';
/** Seconds a device stays known after its last sign-in to an account. */
export const KNOWN_DEVICE_MAX_AGE = 180 * 24 * 3600;
const MAX_ACCOUNTS = 5;

/** One account this device signed in to: user id, device id, last sign-in (seconds). */
type Entry = [user: string, device: string, at: number];

/** The full cookie name, as createAuthCookie makes it (for routes outside Better Auth). */
export const knownDeviceCookieName = (secure: boolean): string =>
  `${secure ? '__Secure-' : ''}sealvault.${KNOWN_DEVICE_COOKIE}`;

const keyOf = (secret: string) =>
  createHmac('sha256', secret).update('sealvault known devices v1').digest();

const sign = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

function isEntry(e: unknown): e is Entry {
  return (
    Array.isArray(e) &&
    e.length === 3 &&
    typeof e[0] === 'string' &&
    typeof e[1] === 'string' &&
    typeof e[2] === 'number'
  );
}

/** The accounts a cookie value vouches for, newest first; none when its signature fails. */
function entriesOf(value: string | null | undefined, secret: string, nowMs: number): Entry[] {
  if (!value) return [];
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return [];
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64url');
  const expected = Buffer.from(sign(secret, payload), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const oldest = nowMs / 1000 - KNOWN_DEVICE_MAX_AGE;
  return parsed.filter(isEntry).filter(([, , at]) => at > oldest);
}

/** The device id this cookie holds for `userId`, or null when the device is not known to it. */
export function knownDeviceOf(
  value: string | null | undefined,
  secret: string,
  userId: string,
  nowMs: number,
): string | null {
  return entriesOf(value, secret, nowMs).find(([user]) => user === userId)?.[1] ?? null;
}

/** True when the cookie vouches for any account (worth looking the account's id up). */
export const vouchesForAny = (value: string | null | undefined, secret: string, nowMs: number) =>
  entriesOf(value, secret, nowMs).length > 0;

/** The cookie value after a sign-in of `userId`: its device id kept, or a new one. */
export function withKnownDevice(
  value: string | null | undefined,
  secret: string,
  userId: string,
  nowMs: number,
): string {
  const entries = entriesOf(value, secret, nowMs);
  const device =
    entries.find(([user]) => user === userId)?.[1] ?? randomBytes(16).toString('base64url');
  const latest: Entry = [userId, device, Math.floor(nowMs / 1000)];
  const next = [latest, ...entries.filter(([user]) => user !== userId)].slice(0, MAX_ACCOUNTS);
  const payload = Buffer.from(JSON.stringify(next)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}
