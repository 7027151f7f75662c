// The two tokens of a share link's public routes (issue 29).
//
// - The access token (X-Share-Access) is 32 bytes the browser derives from the link's key; the
//   server keeps only its SHA-256 (access_hash) and compares hashes in constant time. Every
//   request hashes the token it was given, whether the id is known or not (and a malformed token
//   too, as 32 zero bytes), so an unknown id and a wrong token take about the same time.
// - The download token (X-Share-Download) is the server's own: an open of a file link hands one
//   out, good for SHARE_DOWNLOAD_SECONDS, so the recipient can fetch the ciphertext in as many
//   Range requests as it needs without counting more opens. It is `<expiry>.<mac>`: the expiry
//   in Unix seconds and HMAC-SHA256 over the link id and the expiry, under a key derived from the
//   Better Auth secret with a label of its own (as trial-emails.ts derives its key), so it can be
//   confused with nothing else the secret signs. Nothing is stored; changing the secret voids
//   the tokens out.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { shareAccessTokenSchema } from '@sealvault/protocol';

const ZERO_TOKEN = Buffer.alloc(32);
/** Compared against when no link has the id, so the comparison still runs. */
const NO_HASH = Buffer.alloc(32, 0xff);

/** SHA-256 of the token's 32 bytes; a malformed token hashes as 32 zero bytes (and never matches). */
export function hashAccessToken(token: string | undefined): { hash: Buffer; wellFormed: boolean } {
  const wellFormed = shareAccessTokenSchema.safeParse(token).success;
  const bytes = wellFormed ? Buffer.from(token!, 'base64url') : ZERO_TOKEN;
  return { hash: createHash('sha256').update(bytes).digest(), wellFormed };
}

/** Whether `given` is the stored hash (hex), in constant time; a missing row compares too. */
export function accessMatches(given: Buffer, storedHex: string | undefined): boolean {
  const stored =
    storedHex && /^[0-9a-f]{64}$/.test(storedHex) ? Buffer.from(storedHex, 'hex') : null;
  const same = timingSafeEqual(given, stored ?? NO_HASH);
  return same && stored !== null;
}

const downloadKey = (secret: string) =>
  createHmac('sha256', secret).update('sealvault share downloads v1').digest();

const macOf = (secret: string, id: string, expiry: number) =>
  createHmac('sha256', downloadKey(secret)).update(`${id}\n${expiry}`).digest();

/** A download token for link `id`, good until `now + seconds`. */
export function downloadToken(secret: string, id: string, now: Date, seconds: number): string {
  const expiry = Math.floor(now.getTime() / 1000) + seconds;
  return `${expiry}.${macOf(secret, id, expiry).toString('base64url')}`;
}

/** Whether `token` is a download token of link `id` that has not expired at `now`. */
export function downloadTokenValid(
  secret: string,
  id: string,
  token: string | undefined,
  now: Date,
): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  if (!match) return false;
  const expiry = Number(match[1]);
  const mac = Buffer.from(match[2]!, 'base64url');
  const same = timingSafeEqual(mac, macOf(secret, id, expiry));
  return same && expiry * 1000 > now.getTime();
}
