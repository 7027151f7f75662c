import { expect, it } from 'vitest';
import { groupSecret, totpSecretFromUri } from './totp.ts';

it('reads the secret of an otpauth URI', () => {
  expect(
    totpSecretFromUri(
      'otpauth://totp/SealVault:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=SealVault',
    ),
  ).toBe('JBSWY3DPEHPK3PXP');
  expect(totpSecretFromUri('not a uri')).toBe('');
});

it('groups the secret in fours', () => {
  expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
  expect(groupSecret('ABCDE')).toBe('ABCD E');
});
