// The TOTP forms KeePass-family apps store in an entry's strings (issue 32), read into one
// otpauth:// URI so the code shown is the one the source app showed:
// - KeePassXC's `otp`: an otpauth:// URI (Steam marked `encoder=steam`), or the KeeOTP plugin's
//   older `key=BASE32&step=30&size=6` form;
// - KeePass 2.47's built-in `TimeOtp-Secret` (UTF-8), `-Hex`, `-Base32` or `-Base64`, with
//   `TimeOtp-Length`, `TimeOtp-Period` and `TimeOtp-Algorithm` (HMAC-SHA-1/-256/-512);
// - KeeTrayTOTP's `TOTP Seed` (base32) with `TOTP Settings` "period;digits" where digits "S" is
//   Steam ([Note: steam totp] in tools/totp.ts), and an optional third part, a time server URL.
// Strings that give no readable TOTP are left to the caller, which keeps them as custom fields.
import { Secret, TOTP } from 'otpauth';

export interface KeePassTotp {
  /** The otpauth:// URI, or the value as the entry had it when it is not one we can build. */
  totp: string;
  /** The strings it was read from, which are not kept again as custom fields. */
  used: string[];
}

const ALGORITHMS: Record<string, string> = {
  'HMAC-SHA-1': 'SHA1',
  'HMAC-SHA-256': 'SHA256',
  'HMAC-SHA-512': 'SHA512',
};

function uri(
  label: string,
  secret: Secret,
  o: { digits?: number; period?: number; algorithm?: string; steam?: boolean },
) {
  if (o.steam) {
    const steam = new TOTP({ label, secret, algorithm: 'SHA1', digits: 5, period: 30 });
    return `${steam.toString()}&encoder=steam`;
  }
  return new TOTP({
    label,
    secret,
    algorithm: o.algorithm ?? 'SHA1',
    digits: o.digits ?? 6,
    period: o.period ?? 30,
  }).toString();
}

const int = (v: string): number | undefined => (/^\d+$/.test(v.trim()) ? Number(v) : undefined);

function base64Secret(value: string): Secret | undefined {
  try {
    const bin = atob(value.replace(/\s/g, ''));
    return new Secret({ buffer: Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer });
  } catch {
    return undefined;
  }
}

function timeOtp(get: (key: string) => string, label: string): KeePassTotp | undefined {
  const sources: [string, (v: string) => Secret | undefined][] = [
    ['TimeOtp-Secret-Base32', (v) => Secret.fromBase32(v.replace(/[\s=]/g, '').toUpperCase())],
    ['TimeOtp-Secret-Hex', (v) => Secret.fromHex(v.replace(/\s/g, ''))],
    ['TimeOtp-Secret-Base64', base64Secret],
    ['TimeOtp-Secret', (v) => Secret.fromUTF8(v)],
  ];
  const found = sources.find(([key]) => get(key) !== '');
  if (!found) return undefined;
  const [key, read] = found;
  let secret: Secret | undefined;
  try {
    secret = read(get(key));
  } catch {
    secret = undefined;
  }
  const algorithmName = get('TimeOtp-Algorithm');
  const algorithm = algorithmName === '' ? 'SHA1' : ALGORITHMS[algorithmName.toUpperCase()];
  const digits = get('TimeOtp-Length') === '' ? 6 : int(get('TimeOtp-Length'));
  const period = get('TimeOtp-Period') === '' ? 30 : int(get('TimeOtp-Period'));
  if (!secret || !algorithm || digits === undefined || period === undefined) return undefined;
  const settings = ['TimeOtp-Length', 'TimeOtp-Period', 'TimeOtp-Algorithm'];
  return {
    totp: uri(label, secret, { algorithm, digits, period }),
    used: [key, ...settings.filter((k) => get(k) !== '')],
  };
}

function keeTray(get: (key: string) => string, label: string): KeePassTotp | undefined {
  const seed = get('TOTP Seed');
  if (seed === '') return undefined;
  const settings = get('TOTP Settings');
  const [periodText = '30', digitsText = '6'] = settings === '' ? [] : settings.split(';');
  const steam = digitsText.trim().toUpperCase() === 'S';
  const period = int(periodText);
  const digits = steam ? 5 : int(digitsText);
  if (period === undefined || digits === undefined) return undefined;
  let secret: Secret;
  try {
    secret = Secret.fromBase32(seed.replace(/[\s=-]/g, '').toUpperCase());
  } catch {
    return undefined;
  }
  return {
    totp: uri(label, secret, { digits, period, steam }),
    used: ['TOTP Seed', ...(settings === '' ? [] : ['TOTP Settings'])],
  };
}

/** KeeOTP's `key=...&step=...&size=...&type=totp` in KeePassXC's `otp`. */
function keeOtp(value: string, label: string): string | undefined {
  const params = new URLSearchParams(value);
  const key = params.get('key');
  if (key === null || (params.get('type') ?? 'totp').toLowerCase() !== 'totp') return undefined;
  try {
    const secret = Secret.fromBase32(key.replace(/[\s=]/g, '').toUpperCase());
    const digits = int(params.get('size') ?? '6');
    const period = int(params.get('step') ?? '30');
    if (digits === undefined || period === undefined) return undefined;
    return uri(label, secret, { digits, period });
  } catch {
    return undefined;
  }
}

/** The TOTP of an entry whose strings `get` reads (''), labelled `label`; undefined if none. */
export function keepassTotp(get: (key: string) => string, label: string): KeePassTotp | undefined {
  const otp = get('otp');
  if (otp !== '') {
    const built = /^otpauth:/i.test(otp.trim()) ? undefined : keeOtp(otp, label);
    return { totp: built ?? otp, used: ['otp'] };
  }
  return timeOtp(get, label) ?? keeTray(get, label);
}
