// 1PUX oddities (issue 32): nulls where lists and strings are expected, a second TOTP.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseOnePux } from './onepux.ts';

const pux = (items: unknown[]) =>
  zipSync({
    'export.data': strToU8(
      JSON.stringify({ accounts: [{ vaults: [{ attrs: { name: 'Private' }, items }] }] }),
    ),
  });

describe('1PUX tolerance', () => {
  it('reads nulls as nothing and keeps a second TOTP as a hidden field', () => {
    const r = parseOnePux(
      pux([
        {
          uuid: 'a',
          categoryUuid: '001',
          overview: {
            title: 'Site',
            url: null,
            urls: [null, { url: 'https://a.example' }],
            tags: null,
          },
          details: {
            loginFields: [null, { value: 'ana', designation: 'username' }],
            notesPlain: null,
            sections: [
              null,
              {
                title: 'OTP',
                fields: [
                  {
                    title: 'one',
                    id: 't1',
                    value: { totp: 'otpauth://totp/One?secret=JBSWY3DPEHPK3PXP' },
                  },
                  { title: 'two', id: 't2', value: { totp: 'GEZDGNBVGY3TQOJQ' } },
                  { title: 'blank', id: 'b', value: null },
                ],
              },
            ],
          },
        },
      ]),
    );
    expect(r.items[0]).toMatchObject({
      title: 'Site',
      urls: ['https://a.example'],
      totp: 'otpauth://totp/One?secret=JBSWY3DPEHPK3PXP',
      login: { username: 'ana', password: '' },
      customFields: [{ name: 'two', value: 'GEZDGNBVGY3TQOJQ', hidden: true }],
    });
  });
});
