import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ipnDate,
  ipnReceipt,
  parseIpnForm,
  signIpnFields,
  signatureSource,
  verifyIpn,
} from './ipn.ts';

const KEY = 'AABBCCDDEEFF';

describe('IPN signature source', () => {
  it('matches the provider documentation example (length-prefixed values, HMAC-MD5 vector)', () => {
    // The provider's documented receipt example: IPN_PID[0]=1, IPN_PNAME[0]='Software program',
    // IPN_DATE=DATE=20050303123434, key AABBCCDDEEFF.
    const form = parseIpnForm(
      'IPN_PID[]=1&IPN_PNAME[]=Software+program&IPN_DATE=20050303123434&DATE=20050303123434',
    );
    const source = signatureSource(form);
    expect(source).toBe('1116Software program14200503031234341420050303123434');
    expect(crypto.createHmac('md5', KEY).update(source).digest('hex')).toBe(
      '7bf97ed39681027d0c45aa45e3ea98f0',
    );
  });

  it('groups array fields at their first occurrence, counts bytes and includes empty values', () => {
    const form = parseIpnForm('IPN_PID[]=1&NAME=Zoë&IPN_PID[]=22&EMPTY=&HASH=x');
    // 1 and 22 (grouped), 'Zoë' is 4 bytes, '' is 0; HASH is left out.
    expect(signatureSource(form)).toBe('11' + '222' + '4Zoë' + '0');
  });
});

describe('verifyIpn', () => {
  const fields = [
    ['REFNO', '1234'],
    ['ORDERSTATUS', 'COMPLETE'],
    ['IPN_PID[]', '9'],
    ['IPN_PNAME[]', 'Pro'],
  ] as const;

  it('accepts a SIGNATURE_SHA2_256 made with the secret key', () => {
    const form = parseIpnForm(signIpnFields(fields, 'secret-key-1'));
    expect(verifyIpn(form, 'secret-key-1')).toEqual({ ok: true, algorithm: 'sha256' });
  });

  it('refuses another key, a changed field, an unsigned body and an MD5-only HASH', () => {
    const body = signIpnFields(fields, 'secret-key-1');
    expect(verifyIpn(parseIpnForm(body), 'secret-key-2')).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyIpn(parseIpnForm(body.replace('1234', '1235')), 'secret-key-1').ok).toBe(false);
    expect(verifyIpn(parseIpnForm('REFNO=1234'), 'secret-key-1')).toEqual({
      ok: false,
      reason: 'unsigned',
    });
    expect(verifyIpn(parseIpnForm('REFNO=1234&HASH=abc'), 'k')).toEqual({
      ok: false,
      reason: 'unsigned',
    });
    expect(verifyIpn(parseIpnForm('REFNO=1&SIGNATURE_SHA2_256=zz'), 'k').ok).toBe(false);
  });

  it('accepts SIGNATURE_SHA3_256 when it is the only signature', () => {
    const src = signatureSource(parseIpnForm('REFNO=7'));
    const sig = crypto.createHmac('sha3-256', 'k3').update(src).digest('hex');
    expect(verifyIpn(parseIpnForm(`REFNO=7&SIGNATURE_SHA3_256=${sig}`), 'k3')).toEqual({
      ok: true,
      algorithm: 'sha3-256',
    });
  });
});

describe('ipnReceipt', () => {
  it('signs IPN_PID[0], IPN_PNAME[0], IPN_DATE and its own date', () => {
    const form = parseIpnForm('IPN_PID[]=1&IPN_PNAME[]=Software+program&IPN_DATE=20050303123434');
    const now = new Date('2005-03-03T12:34:34Z');
    expect(ipnDate(now)).toBe('20050303123434');
    const expected = crypto
      .createHmac('sha256', KEY)
      .update('1116Software program14200503031234341420050303123434')
      .digest('hex');
    expect(ipnReceipt(form, KEY, 'sha256', now)).toBe(
      `<sig algo="sha256" date="20050303123434">${expected}</sig>`,
    );
  });
});
