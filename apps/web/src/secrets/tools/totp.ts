// Time-based one-time codes for a login (issue 20): what the user typed, pasted or read from a QR
// image becomes one canonical `otpauth://totp/...` URI, and the current code is computed from it
// locally with the otpauth library (RFC 6238 over RFC 4226's HOTP), never by hand and never by a
// server. The secret stays inside the encrypted item like the password does.
// [Note: steam totp]: Steam Guard codes are TOTP (HMAC-SHA1, 30 s) whose 31-bit truncated value
// is written as 5 characters of Steam's alphabet instead of decimal digits. Password managers mark
// them `encoder=steam` on an otpauth URI (KeePassXC), `steam://SECRET` (Bitwarden)
// or KeeTrayTOTP's settings "30;S"; we store the first form (digits=5 plus `encoder=steam`).
import { Secret, TOTP, URI } from 'otpauth';
import { msg } from '../../i18n/i18n.ts';

/** What {@link parseTotp} makes of an input: the canonical URI to store, or why it cannot. */
export type TotpParse = { uri: string; error?: never } | { error: string; uri?: never };

/** The code to show now, with how long it stays valid. */
export interface TotpCode {
  code: string;
  /** Whole seconds until the next code, 1..period (rounded up, as authenticator apps count). */
  secondsLeft: number;
  period: number;
}

/**
 * The smallest secret accepted: 80 bits (16 base32 characters), the shortest in common use.
 * RFC 4226 §4 asks for 128 bits; shorter real-world secrets are still the user's only copy, so we
 * take them, but anything below 80 bits is far more likely a typo or a pasted password.
 */
export const MIN_SECRET_BYTES = 10;

// Texts marked as ours (conventions.md, "Errors and messages").
export const TOTP_ERRORS = {
  empty: msg('Enter a setup key or an otpauth:// link.'),
  hotp: msg('Only time-based codes (TOTP) are supported, not counter-based (HOTP) ones.'),
  migration: msg(
    'This is an export from Google Authenticator. Add each account with its own QR code or setup key.',
  ),
  invalidUri: msg('This otpauth:// link is not valid.'),
  invalidSecret: msg('The setup key must be base32: letters A to Z and digits 2 to 7.'),
  shortSecret: msg('The setup key is too short: it needs at least 16 characters.'),
  digits: msg('Codes of 6 to 10 digits are supported.'),
  period: msg('The code period must be between 1 and 300 seconds.'),
} as const;

const BASE32 = /^[A-Z2-7]+$/;

/** Steam Guard's code alphabet ([Note: steam totp]). */
export const STEAM_ALPHABET = '23456789BCDFGHJKMNPQRTVWXY';
const STEAM_ENCODER = /[?&]encoder=steam(&|$)/i;

/** Whether a stored URI is a Steam Guard one ([Note: steam totp]). */
export const isSteamTotp = (uri: string): boolean => STEAM_ENCODER.test(uri);

/** Steam's 5 characters of a 31-bit truncated HOTP value: least significant first. */
export function steamCode(truncated: number): string {
  let rest = truncated;
  let code = '';
  for (let i = 0; i < 5; i++) {
    code += STEAM_ALPHABET[rest % STEAM_ALPHABET.length] ?? '';
    rest = Math.floor(rest / STEAM_ALPHABET.length);
  }
  return code;
}

/**
 * Turns an `otpauth://totp/...` URI or a bare base32 secret (spaces, dashes, lowercase and `=`
 * padding allowed, as sites print them) into the canonical URI otpauth writes: upper-case secret,
 * explicit algorithm, digits and period. `names` labels a bare secret (a URI keeps its own).
 */
export function parseTotp(
  input: string,
  names: { issuer?: string; label?: string; steam?: boolean } = {},
): TotpParse {
  let text = input.trim();
  let steam = names.steam === true;
  // Bitwarden's Steam form: steam://SECRET.
  const steamUri = /^steam:\/\/(.*)$/i.exec(text);
  if (steamUri) {
    text = steamUri[1] ?? '';
    steam = true;
  }
  if (text === '') return { error: TOTP_ERRORS.empty };
  if (/^otpauth-migration:/i.test(text)) return { error: TOTP_ERRORS.migration };
  let totp: TOTP;
  if (/^otpauth:/i.test(text)) {
    if (/^otpauth:\/\/hotp\//i.test(text)) return { error: TOTP_ERRORS.hotp };
    try {
      // Some issuers put spaces in the secret (encoded or not); otpauth's parser refuses them.
      const parsed = URI.parse(
        text.replace(
          /([?&]secret=)([^&]*)/i,
          (_m, k: string, v: string) => k + decodeURIComponent(v).replace(/[\s-]/g, ''),
        ),
      );
      if (!(parsed instanceof TOTP)) return { error: TOTP_ERRORS.hotp };
      totp = parsed;
      steam ||= STEAM_ENCODER.test(text);
    } catch {
      return { error: TOTP_ERRORS.invalidUri };
    }
  } else {
    const secret = text.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
    if (!BASE32.test(secret)) return { error: TOTP_ERRORS.invalidSecret };
    totp = new TOTP({
      issuer: names.issuer ?? '',
      label: names.label?.trim() || 'TOTP',
      secret: Secret.fromBase32(secret),
    });
  }
  if (totp.secret.bytes.length < MIN_SECRET_BYTES) return { error: TOTP_ERRORS.shortSecret };
  if (steam) {
    // Steam fixes the algorithm, the period and the length, whatever the URI said.
    const { issuer, label, secret } = totp;
    const fixed = new TOTP({ issuer, label, secret, algorithm: 'SHA1', digits: 5, period: 30 });
    return { uri: `${fixed.toString()}&encoder=steam` };
  }
  if (totp.digits < 6 || totp.digits > 10) return { error: TOTP_ERRORS.digits };
  if (totp.period < 1 || totp.period > 300) return { error: TOTP_ERRORS.period };
  return { uri: totp.toString() };
}

/** The code for `nowMs` (ms since the epoch) from a URI {@link parseTotp} produced. */
export function totpNow(uri: string, nowMs: number): TotpCode {
  const totp = URI.parse(uri);
  if (!(totp instanceof TOTP)) throw new TypeError(TOTP_ERRORS.hotp);
  const { period } = totp;
  let code: string;
  if (isSteamTotp(uri)) {
    // 10 decimal digits hold the whole 31-bit truncated value (2^31 < 10^10).
    const { secret, algorithm } = totp;
    const full = new TOTP({ secret, algorithm, period, digits: 10 }).generate({ timestamp: nowMs });
    code = steamCode(Number(full));
  } else {
    code = totp.generate({ timestamp: nowMs });
  }
  return {
    code,
    secondsLeft: Math.ceil(TOTP.remaining({ period, timestamp: nowMs }) / 1000),
    period,
  };
}

/** A 2D context to read pixels from: an OffscreenCanvas where there is one, else a canvas. */
function context2d(
  width: number,
  height: number,
): OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null {
  if (typeof OffscreenCanvas === 'function') {
    return new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas.getContext('2d', { willReadFrequently: true });
}

/** The largest side a QR image is scanned at: a phone photo is scaled down to keep jsQR quick. */
const MAX_SCAN_SIDE = 1600;

/** Text of the QR code in RGBA pixels (ImageData's layout), or null when none is found. */
export async function decodeQrPixels(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
): Promise<string | null> {
  // Loaded on first use: most sessions never scan a QR code.
  const { default: jsQR } = await import('jsqr');
  // Both polarities: a light-on-dark code (a dark-mode page's screenshot) reads too.
  return jsQR(rgba, width, height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

export const QR_ERRORS = {
  unreadable: msg('This file could not be read as an image.'),
  none: msg('No QR code was found in this image.'),
} as const;

/**
 * Reads the QR code in an image file (PNG, JPEG, a screenshot) in the browser: decoded to an
 * ImageBitmap, drawn on an (Offscreen)Canvas, its pixels handed to jsQR. Throws an Error with one
 * of {@link QR_ERRORS}. The image never leaves the page.
 */
export async function readQrImage(blob: Blob): Promise<string> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch {
    throw new Error(QR_ERRORS.unreadable);
  }
  const scale = Math.min(1, MAX_SCAN_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const ctx = context2d(width, height);
  if (!ctx) throw new Error(QR_ERRORS.unreadable);
  // A transparent PNG's empty pixels read as black: paint white under it, as a viewer shows it.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const text = await decodeQrPixels(ctx.getImageData(0, 0, width, height).data, width, height);
  if (text === null) throw new Error(QR_ERRORS.none);
  return text;
}
