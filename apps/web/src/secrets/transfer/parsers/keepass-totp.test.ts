import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { totpNow } from '../../tools/totp.ts';
import { keepassTotp } from './keepass-totp.ts';
import { parseKeePassXml } from './keepass.ts';

// RFC 6238's SHA-1 seed: "12345678901234567890" as text, hex, base64 and base32.
const SEED = '12345678901234567890';
const HEX = Buffer.from(SEED).toString('hex');
const B64 = Buffer.from(SEED).toString('base64');
const B32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

const strings = (o: Record<string, string>) => (k: string) => o[k] ?? '';
const codeAt = (fields: Record<string, string>, seconds: number) => {
  const found = keepassTotp(strings(fields), 'Entry');
  if (!found) throw new Error('no TOTP read');
  return totpNow(found.totp, seconds * 1000).code;
};

/** Steam Guard's code computed from scratch: RFC 4226 truncation, then Steam's alphabet. */
function steamVector(seconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const mac = createHmac('sha1', SEED).update(counter).digest();
  let full = mac.readUInt32BE((mac[19] ?? 0) & 0xf) & 0x7fffffff;
  let code = '';
  for (let i = 0; i < 5; i++) {
    code += '23456789BCDFGHJKMNPQRTVWXY'[full % 26];
    full = Math.floor(full / 26);
  }
  return code;
}

describe('KeePass TOTP forms', () => {
  it('reads KeePass 2 TimeOtp-Secret in every encoding with its length, period and algorithm', () => {
    for (const [key, value] of [
      ['TimeOtp-Secret', SEED],
      ['TimeOtp-Secret-Hex', HEX],
      ['TimeOtp-Secret-Base64', B64],
      ['TimeOtp-Secret-Base32', B32],
    ] as const) {
      // RFC 6238 Appendix B, SHA-1, T = 59 s and 1111111109 s.
      expect(codeAt({ [key]: value, 'TimeOtp-Length': '8' }, 59)).toBe('94287082');
      expect(codeAt({ [key]: value, 'TimeOtp-Length': '8' }, 1111111109)).toBe('07081804');
    }
    const full = keepassTotp(
      strings({
        'TimeOtp-Secret-Hex': HEX,
        'TimeOtp-Length': '8',
        'TimeOtp-Period': '60',
        'TimeOtp-Algorithm': 'HMAC-SHA-256',
      }),
      'E',
    );
    expect(full?.totp).toMatch(/algorithm=SHA256&digits=8&period=60$/);
    expect(full?.used).toEqual([
      'TimeOtp-Secret-Hex',
      'TimeOtp-Length',
      'TimeOtp-Period',
      'TimeOtp-Algorithm',
    ]);
  });

  it("keeps KeeTrayTOTP's Steam and digits settings", () => {
    expect(codeAt({ 'TOTP Seed': B32, 'TOTP Settings': '30;S' }, 59)).toBe(steamVector(59));
    expect(codeAt({ 'TOTP Seed': B32, 'TOTP Settings': '30;S' }, 1234567890)).toBe(
      steamVector(1234567890),
    );
    expect(codeAt({ 'TOTP Seed': B32, 'TOTP Settings': '30;8' }, 59)).toBe('94287082');
    expect(codeAt({ 'TOTP Seed': B32, 'TOTP Settings': '30;8;https://time.example' }, 59)).toBe(
      '94287082',
    );
    expect(codeAt({ 'TOTP Seed': B32 }, 59)).toBe('287082');
  });

  it("reads KeePassXC's otp URI, Steam included, and KeeOTP's key= form", () => {
    const steam = `otpauth://totp/Steam:me?secret=${B32}&period=30&digits=5&issuer=Steam&encoder=steam`;
    expect(keepassTotp(strings({ otp: steam }), 'E')).toEqual({ totp: steam, used: ['otp'] });
    expect(codeAt({ otp: steam }, 59)).toBe(steamVector(59));
    expect(codeAt({ otp: `key=${B32}&size=8&step=30` }, 59)).toBe('94287082');
  });

  it('leaves strings it cannot read to be kept as custom fields', () => {
    expect(
      keepassTotp(strings({ 'TimeOtp-Secret-Base32': B32, 'TimeOtp-Algorithm': 'MD5' }), 'E'),
    ).toBeUndefined();
    expect(keepassTotp(strings({ 'TOTP Seed': B32, 'TOTP Settings': 'x;y' }), 'E')).toBeUndefined();
    expect(keepassTotp(strings({ Other: 'x' }), 'E')).toBeUndefined();
  });

  it('keeps tags and an expiry date, and names Auto-Type settings', async () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<KeePassFile><Meta><Generator>KeePass</Generator></Meta><Root><Group>
  <UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>
  <Entry><UUID>AAAAAAAAAAAAAAAAAAAAEA==</UUID><Tags>work;vpn</Tags>
    <Times><Expires>True</Expires><ExpiryTime>2030-05-01T00:00:00Z</ExpiryTime></Times>
    <String><Key>Title</Key><Value>VPN</Value></String>
    <AutoType><Enabled>True</Enabled><DefaultSequence>{USERNAME}{ENTER}</DefaultSequence></AutoType>
  </Entry>
</Group></Root></KeePassFile>`;
    const r = await parseKeePassXml(xml);
    expect(r.items[0]!.customFields).toEqual([
      { name: 'Tags', value: 'work, vpn', hidden: false },
      { name: 'Expires', value: '2030-05-01', hidden: false },
    ]);
    expect(r.skipped).toEqual([{ entry: 'VPN', reason: 'Auto-Type settings are not imported' }]);
  });

  it('imports a KeeTrayTOTP Steam entry with its setting, and an unreadable one as fields', async () => {
    const entry = (uuid: string, title: string, extra: string) => `
      <Entry><UUID>${uuid}</UUID>
        <String><Key>Title</Key><Value>${title}</Value></String>
        ${extra}
      </Entry>`;
    const xml = `<?xml version="1.0" encoding="utf-8"?>
<KeePassFile><Meta><Generator>KeePass</Generator></Meta><Root><Group>
  <UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>
  ${entry('AAAAAAAAAAAAAAAAAAAAEA==', 'Steam', `<String><Key>TOTP Seed</Key><Value ProtectInMemory="True">${B32}</Value></String><String><Key>TOTP Settings</Key><Value>30;S</Value></String>`)}
  ${entry('AAAAAAAAAAAAAAAAAAAAEQ==', 'Odd', `<String><Key>TimeOtp-Secret-Base32</Key><Value>${B32}</Value></String><String><Key>TimeOtp-Algorithm</Key><Value>MD5</Value></String>`)}
</Group></Root></KeePassFile>`;
    const r = await parseKeePassXml(xml);
    expect(r.items[0]!.customFields).toEqual([]);
    expect(totpNow(r.items[0]!.totp!, 59_000).code).toBe(steamVector(59));
    expect(r.items[1]!.totp).toBeUndefined();
    expect(r.items[1]!.customFields.map((f) => f.name)).toEqual([
      'TimeOtp-Secret-Base32',
      'TimeOtp-Algorithm',
    ]);
  });
});
