// Apple Passwords (macOS 15, iOS 18) exports the Safari form, `Title,URL,Username,Password,Notes,
// OTPAuth`: read by the Safari CSV parser, its OTPAuth column as the TOTP (issue 32).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTotp, totpNow } from '../../tools/totp.ts';
import { csvMatches } from '../detect.ts';
import { parseImport } from '../import.ts';
import { csvHeader } from '../read.ts';

const bytes = () => readFileSync(new URL('../samples/apple-passwords.csv', import.meta.url));

describe('Apple Passwords CSV', () => {
  it('is recognised as the Safari form under its default file name', async () => {
    const text = new TextDecoder().decode(bytes());
    expect(csvMatches(csvHeader(text), 'Passwords.csv')).toEqual(['safari-csv']);
    const r = await parseImport({ name: 'Passwords.csv', bytes: bytes() });
    expect(r.format).toBe('safari-csv');
  });

  it('reads logins with their notes, TOTP (Steam too), unicode, empty fields and a short row', async () => {
    const r = await parseImport({ name: 'Passwords.csv', bytes: bytes() });
    expect(r.items).toMatchObject([
      {
        type: 'login',
        title: 'mail.example (ana@example.com)',
        notes: 'Recovery codes:\n1234 5678',
        urls: ['https://mail.example/'],
        totp: 'otpauth://totp/mail.example:ana%40example.com?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&algorithm=SHA1&issuer=mail.example',
        login: { username: 'ana@example.com', password: 'pa,ss"ünï' },
        customFields: [],
      },
      {
        title: 'store.steampowered.com (gamer)',
        notes: '',
        totp: 'otpauth://totp/Steam:gamer?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam',
      },
      { title: 'Bänk ✓', login: { username: '', password: '' }, customFields: [] },
      { title: 'router.local', notes: '', login: { username: 'admin', password: 'r00t' } },
    ]);
    expect(r.items[2]?.totp).toBeUndefined();
    expect(r.skipped).toEqual([]);
    // The Steam entry's codes are Steam's: five characters of its alphabet.
    const { uri, error } = parseTotp(r.items[1]?.totp ?? '');
    expect(error).toBeUndefined();
    expect(totpNow(uri ?? '', 0).code).toMatch(/^[23456789BCDFGHJKMNPQRTVWXY]{5}$/);
  });

  it('reads the file the same with a BOM and CRLF line ends', async () => {
    const text = new TextDecoder().decode(bytes());
    const crlf = new TextEncoder().encode(`\uFEFF${text.replace(/\n/g, '\r\n')}`);
    const a = await parseImport({ name: 'Passwords.csv', bytes: bytes() });
    const b = await parseImport({ name: 'Passwords.csv', bytes: crlf });
    expect(b).toEqual(a);
  });
});
