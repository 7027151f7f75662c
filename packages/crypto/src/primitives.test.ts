// Published known-answer vectors for every primitive vf1 uses.
import { describe, expect, it } from 'vitest';
import { fromHex, toHex, utf8 } from './bytes.ts';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  argon2id,
  hkdfBytes,
  importAesKey,
  pbkdf2Sha256,
  sha256,
} from './primitives.ts';

// "The Galois/Counter Mode of Operation (GCM)", McGrew & Viega, Appendix B, test cases 13-16:
// the AES-256 cases of the NIST-submitted GCM specification (SP 800-38D).
const P60 =
  'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39';
const FEFF = 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308';
const GCM = [
  {
    name: 'case 13',
    key: '00'.repeat(32),
    iv: '00'.repeat(12),
    pt: '',
    aad: '',
    ct: '',
    tag: '530f8afbc74536b9a963b4f1c4cb738b',
  },
  {
    name: 'case 14',
    key: '00'.repeat(32),
    iv: '00'.repeat(12),
    pt: '00'.repeat(16),
    aad: '',
    ct: 'cea7403d4d606b6e074ec5d3baf39d18',
    tag: 'd0d1c8a799996bf0265b98b5d48ab919',
  },
  {
    name: 'case 15',
    key: FEFF,
    iv: 'cafebabefacedbaddecaf888',
    pt: P60 + '1aafd255',
    aad: '',
    ct: '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad',
    tag: 'b094dac5d93471bdec1a502270e3cc6c',
  },
  {
    name: 'case 16 (with AAD)',
    key: FEFF,
    iv: 'cafebabefacedbaddecaf888',
    pt: P60,
    aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
    ct: '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662',
    tag: '76fc6ece0f4e1768cddf8853bb2d551b',
  },
];

describe('AES-256-GCM (GCM spec / NIST SP 800-38D vectors)', () => {
  for (const v of GCM) {
    it(`encrypts and decrypts ${v.name}`, async () => {
      const key = await importAesKey(fromHex(v.key));
      const sealed = await aesGcmEncrypt(key, fromHex(v.iv), fromHex(v.pt), fromHex(v.aad));
      expect(toHex(sealed)).toBe(v.ct + v.tag);
      const opened = await aesGcmDecrypt(key, fromHex(v.iv), sealed, fromHex(v.aad));
      expect(toHex(opened)).toBe(v.pt);
    });
  }

  it('rejects a changed tag', async () => {
    const v = GCM[3]!;
    const key = await importAesKey(fromHex(v.key));
    const sealed = fromHex(v.ct + v.tag);
    sealed[sealed.length - 1]! ^= 1;
    await expect(aesGcmDecrypt(key, fromHex(v.iv), sealed, fromHex(v.aad))).rejects.toThrow();
  });
});

describe('HKDF-SHA256 (RFC 5869 appendix A)', () => {
  const ikm = fromHex('0b'.repeat(22));
  it('matches test case 1', async () => {
    const okm = await hkdfBytes(
      ikm,
      fromHex('000102030405060708090a0b0c'),
      fromHex('f0f1f2f3f4f5f6f7f8f9'),
      42,
    );
    expect(toHex(okm)).toBe(
      '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
    );
  });
  it('matches test case 3 (empty salt and info)', async () => {
    const okm = await hkdfBytes(ikm, new Uint8Array(0), new Uint8Array(0), 42);
    expect(toHex(okm)).toBe(
      '8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8',
    );
  });
});

describe('PBKDF2-HMAC-SHA256 (RFC 7914 section 11)', () => {
  it('matches P="passwd", S="salt", c=1, dkLen=64', async () => {
    const dk = await pbkdf2Sha256(utf8('passwd'), utf8('salt'), 1, 64);
    expect(toHex(dk)).toBe(
      '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
    );
  });
  it('matches P="Password", S="NaCl", c=80000, dkLen=64', async () => {
    const dk = await pbkdf2Sha256(utf8('Password'), utf8('NaCl'), 80_000, 64);
    expect(toHex(dk)).toBe(
      '4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d',
    );
  });
});

// RFC 9106 section 5.3 uses a secret and associated data; hash-wasm has no associated-data input,
// so these are the Argon2id v1.3 vectors of the reference implementation (phc-winner-argon2,
// src/test.c), which use neither.
describe('Argon2id v1.3 (reference implementation test vectors)', () => {
  const pw = utf8('password');
  const salt = utf8('somesalt');
  it('matches m=256 KiB, t=2, p=1', async () => {
    expect(toHex(await argon2id(pw, salt, 256, 2, 1))).toBe(
      '9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe',
    );
  });
  it('matches m=256 KiB, t=2, p=2', async () => {
    expect(toHex(await argon2id(pw, salt, 256, 2, 2))).toBe(
      '6d093c501fd5999645e0ea3bf620d7b8be7fd2db59c20d9fff9539da2bf57037',
    );
  });
  it('matches m=64 MiB, t=2, p=1', async () => {
    expect(toHex(await argon2id(pw, salt, 65536, 2, 1))).toBe(
      '09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7',
    );
  });
});

describe('SHA-256', () => {
  it('matches the FIPS 180-2 "abc" and empty-string vectors', async () => {
    expect(toHex(await sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(toHex(await sha256(new Uint8Array(0)))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });
});
