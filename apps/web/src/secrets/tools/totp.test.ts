import { createHmac } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { decodeQrPixels, isSteamTotp, parseTotp, TOTP_ERRORS, totpNow } from './totp.ts';

// RFC 6238 Appendix B: the ASCII seeds "1234567890" repeated to 20, 32 and 64 bytes, in base32.
const SEED_SHA1 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const SEED_SHA256 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA';
const SEED_SHA512 =
  'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA';
const VECTORS: [seconds: number, sha1: string, sha256: string, sha512: string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];
const uriFor = (secret: string, algorithm: string) =>
  `otpauth://totp/RFC:6238?secret=${secret}&algorithm=${algorithm}&digits=8&period=30`;

const ok = (r: ReturnType<typeof parseTotp>): string => {
  if (r.uri === undefined) throw new Error(`expected a URI, got: ${r.error}`);
  return r.uri;
};

describe('totpNow', () => {
  it.each(VECTORS)('gives RFC 6238 SHA-1 code at T=%i s', (t, sha1) => {
    expect(totpNow(ok(parseTotp(uriFor(SEED_SHA1, 'SHA1'))), t * 1000).code).toBe(sha1);
  });

  it.each(VECTORS)(
    'gives RFC 6238 SHA-256 and SHA-512 codes at T=%i s',
    (t, _s, sha256, sha512) => {
      expect(totpNow(ok(parseTotp(uriFor(SEED_SHA256, 'SHA256'))), t * 1000).code).toBe(sha256);
      expect(totpNow(ok(parseTotp(uriFor(SEED_SHA512, 'SHA512'))), t * 1000).code).toBe(sha512);
    },
  );

  it('counts the seconds left in the period, rounded up, and gives the period', () => {
    const uri = ok(parseTotp(SEED_SHA1));
    expect(totpNow(uri, 60_000)).toMatchObject({ secondsLeft: 30, period: 30 });
    expect(totpNow(uri, 60_001).secondsLeft).toBe(30);
    expect(totpNow(uri, 89_000).secondsLeft).toBe(1);
    expect(totpNow(uri, 89_999).secondsLeft).toBe(1);
    const minute = ok(parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&period=60`));
    expect(totpNow(minute, 61_000)).toMatchObject({ secondsLeft: 59, period: 60 });
  });

  it('keeps one code through a period and changes it at the boundary', () => {
    const uri = ok(parseTotp(SEED_SHA1));
    expect(totpNow(uri, 30_000).code).toBe(totpNow(uri, 59_999).code);
    expect(totpNow(uri, 59_999).code).not.toBe(totpNow(uri, 60_000).code);
    expect(totpNow(uri, 30_000).code).toMatch(/^\d{6}$/);
  });
});

describe('parseTotp', () => {
  it('takes a bare base32 secret with spaces, dashes, lower case and padding', () => {
    const canonical = ok(parseTotp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'));
    expect(canonical).toBe(
      'otpauth://totp/TOTP?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30',
    );
    expect(ok(parseTotp('  gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n'))).toBe(canonical);
    expect(ok(parseTotp('GEZD-GNBV-GY3T-QOJQ-GEZD-GNBV-GY3T-QOJQ'))).toBe(canonical);
    expect(ok(parseTotp('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP===='))).toContain(
      'secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&',
    );
  });

  it('labels a bare secret with the names given', () => {
    expect(ok(parseTotp(SEED_SHA1, { issuer: 'Example', label: 'alice@example.com' }))).toBe(
      `otpauth://totp/Example:alice%40example.com?issuer=Example&secret=${SEED_SHA1}&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('keeps the issuer, label, algorithm, digits and period of a URI', () => {
    const uri = ok(
      parseTotp(
        'otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA256&digits=8&period=60',
      ),
    );
    expect(uri).toBe(
      'otpauth://totp/ACME%20Co:john.doe%40email.com?issuer=ACME%20Co&secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&algorithm=SHA256&digits=8&period=60',
    );
    expect(totpNow(uri, 0)).toMatchObject({ period: 60 });
    expect(totpNow(uri, 0).code).toMatch(/^\d{8}$/);
  });

  it('accepts an upper-case scheme, a lower-case secret and a secret with spaces in a URI', () => {
    const want = `secret=${SEED_SHA1}&`;
    expect(ok(parseTotp(`OTPAUTH://TOTP/x?secret=${SEED_SHA1.toLowerCase()}`))).toContain(want);
    expect(
      ok(
        parseTotp('otpauth://totp/x?secret=GEZD%20GNBV%20GY3T%20QOJQ%20GEZD%20GNBV%20GY3T%20QOJQ'),
      ),
    ).toContain(want);
  });

  it('refuses what is not a usable TOTP secret, with a message saying why', () => {
    expect(parseTotp('   ')).toEqual({ error: TOTP_ERRORS.empty });
    expect(parseTotp('not base32!')).toEqual({ error: TOTP_ERRORS.invalidSecret });
    expect(parseTotp('GEZDGNBV18')).toEqual({ error: TOTP_ERRORS.invalidSecret });
    expect(parseTotp('GEZDGNBVGY3TQOJ')).toEqual({ error: TOTP_ERRORS.shortSecret });
    expect(parseTotp(`otpauth://hotp/x?secret=${SEED_SHA1}&counter=1`)).toEqual({
      error: TOTP_ERRORS.hotp,
    });
    expect(parseTotp('otpauth-migration://offline?data=CjEKCkhlbGxvId6tvu8')).toEqual({
      error: TOTP_ERRORS.migration,
    });
    expect(parseTotp('otpauth://totp/x')).toEqual({ error: TOTP_ERRORS.invalidUri });
    expect(parseTotp('otpauth://totp/x?secret=')).toEqual({ error: TOTP_ERRORS.invalidUri });
    expect(parseTotp('otpauth://totp/x?secret=0000')).toEqual({ error: TOTP_ERRORS.invalidUri });
    expect(parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&algorithm=MD5`)).toEqual({
      error: TOTP_ERRORS.invalidUri,
    });
    expect(parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&period=0`)).toEqual({
      error: TOTP_ERRORS.invalidUri,
    });
    expect(parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&period=3600`)).toEqual({
      error: TOTP_ERRORS.period,
    });
    expect(parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&digits=4`)).toEqual({
      error: TOTP_ERRORS.digits,
    });
    expect(parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&secret=%`)).toEqual({
      error: TOTP_ERRORS.invalidUri,
    });
  });
});

/** A QR code drawn as RGBA pixels, `scale` pixels a module, with the 4-module quiet zone. */
function qrPixels(text: string, scale = 4, dark = [0, 0, 0], light = [255, 255, 255]) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 8) * scale;
  const rgba = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const [r, c] = [Math.floor(y / scale) - 4, Math.floor(x / scale) - 4];
      const on = r >= 0 && c >= 0 && r < modules.size && c < modules.size && modules.get(r, c);
      rgba.set([...(on ? dark : light), 255], (y * side + x) * 4);
    }
  }
  return { rgba, side };
}

describe('decodeQrPixels', () => {
  const uri = `otpauth://totp/Example:alice%40example.com?issuer=Example&secret=${SEED_SHA1}&algorithm=SHA1&digits=6&period=30`;

  it('reads the otpauth URI of a QR code, which parseTotp then accepts', async () => {
    const { rgba, side } = qrPixels(uri);
    const text = await decodeQrPixels(rgba, side, side);
    expect(text).toBe(uri);
    expect(ok(parseTotp(text!))).toBe(uri);
  });

  it('reads a light-on-dark QR code too', async () => {
    const { rgba, side } = qrPixels(uri, 3, [240, 240, 240], [20, 20, 20]);
    expect(await decodeQrPixels(rgba, side, side)).toBe(uri);
  });

  it('answers null for an image without a QR code', async () => {
    const rgba = new Uint8ClampedArray(100 * 100 * 4).fill(255);
    expect(await decodeQrPixels(rgba, 100, 100)).toBeNull();
  });
});

/** Steam Guard's code computed here from scratch: RFC 4226 truncation, then Steam's alphabet. */
function steamVector(key: Buffer, seconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[19] ?? 0) & 0xf;
  let full = mac.readUInt32BE(offset) & 0x7fffffff;
  const chars = '23456789BCDFGHJKMNPQRTVWXY';
  let code = '';
  for (let i = 0; i < 5; i++) {
    code += chars[full % 26];
    full = Math.floor(full / 26);
  }
  return code;
}

describe('Steam Guard codes', () => {
  const key = Buffer.from('12345678901234567890');
  const times = [59, 1111111109, 1234567890, 2000000000];

  it.each(times)('shows the Steam code of encoder=steam in its alphabet at T=%i s', (t) => {
    const uri = ok(
      parseTotp(`otpauth://totp/Steam:me?secret=${SEED_SHA1}&issuer=Steam&encoder=steam`),
    );
    expect(isSteamTotp(uri)).toBe(true);
    const code = totpNow(uri, t * 1000).code;
    expect(code).toBe(steamVector(key, t));
    expect(code).toMatch(/^[23456789BCDFGHJKMNPQRTVWXY]{5}$/);
  });

  it('reads steam://SECRET and a bare secret marked Steam, fixing SHA-1, 5 characters, 30 s', () => {
    const fromScheme = ok(parseTotp(`steam://${SEED_SHA1}`));
    const fromBare = ok(parseTotp(SEED_SHA1, { steam: true }));
    const fromUri = ok(
      parseTotp(`otpauth://totp/x?secret=${SEED_SHA1}&digits=8&period=60&encoder=steam`),
    );
    for (const uri of [fromScheme, fromBare, fromUri]) {
      expect(uri).toMatch(/algorithm=SHA1&digits=5&period=30&encoder=steam$/);
      expect(totpNow(uri, 59_000)).toMatchObject({ code: steamVector(key, 59), period: 30 });
    }
    expect(ok(parseTotp(fromUri))).toBe(fromUri);
  });

  it('leaves other codes decimal', () => {
    expect(isSteamTotp(ok(parseTotp(SEED_SHA1)))).toBe(false);
    expect(totpNow(ok(parseTotp(SEED_SHA1)), 59_000).code).toBe('287082');
  });
});
