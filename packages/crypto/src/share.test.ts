// Share links (ADR 0012, vault-format.md "Share links"): the key derivation's vectors, checked
// against the implementation and against the recipe written out with raw WebCrypto; then the
// service's sessions: a link made with a password opens its note with the link alone and its
// content only with the password. Runs in Node and in Chromium (the crypto browser tier).
import { describe, expect, it } from 'vitest';
import { fromHex, toHex, utf8 } from './bytes.ts';
import { asFileId, asItemId } from './ids.ts';
import { argon2id } from './primitives.ts';
import {
  fromBase64Url,
  shareAccessHash,
  shareAccessToken,
  shareInnerKey,
  shareOuterKey,
  sharePasswordKey,
  shareUuid,
  toBase64Url,
} from './share.ts';
import { FAST_KDF, localClient } from './testkit.ts';

const run = (start: number, n: number) =>
  Uint8Array.from({ length: n }, (_, i) => (start + i) & 255);
const ID = run(0xa0, 16);
const SECRET = run(0x40, 32);
const SALT = run(0x80, 16);
const PASSWORD = 'Pa\u0308ssword'; // NFC-normalised to "Pässword" before Argon2id
const KDF = { alg: 'argon2id', m: 19456, t: 2, p: 1 } as const;

/** The vectors of vault-format.md "Share links". */
const V = {
  idUrl: 'oKGio6SlpqeoqaqrrK2urw',
  secretUrl: 'QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8',
  uuid: 'a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf',
  token: '3f93d28f24e4671becc3b520edc591a227cfed61ab73e839cac458b235ccca9d',
  tokenUrl: 'P5PSjyTkZxvsw7Ug7cWRoifP7WGrc-g5ysRYsjXMyp0',
  accessHash: '5e2fef8b293e9dceaef3783be73834dddcf84be33e0b736a6216fae0b6b94de2',
  outer: '846a2751d7c1333394217b00f4c09484a2e562fcbbcc3cf274bbf350d3a4a545',
  inner: 'a40b3c3d970ce30d59b8d770d4d346b98f0c3be367065b1abf1458094139b1de',
  P: '25fc2b2aeeb8b2d67d32be8d692d8a24ddcadad06f3ae8098461103d522e108c',
  innerPw: '8772d980a6e605d953cef151f5eac41b2e5544207f82d3fb40f884f73dc6080a',
};

/** HKDF-SHA256 written out with WebCrypto: the recipe, not the implementation. */
async function hkdf(ikm: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, info: string) {
  const key = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt, info: utf8(info) },
    key,
    256,
  );
  return toHex(new Uint8Array(bits));
}

describe('share link keys', { timeout: 30_000 }, () => {
  it('reproduce the vectors', async () => {
    expect(toBase64Url(ID)).toBe(V.idUrl);
    expect(toBase64Url(SECRET)).toBe(V.secretUrl);
    expect(shareUuid(ID)).toBe(V.uuid);
    const token = await shareAccessToken(ID, SECRET);
    expect(toHex(token)).toBe(V.token);
    expect(toBase64Url(token)).toBe(V.tokenUrl);
    expect(await shareAccessHash(token)).toBe(V.accessHash);
    expect(toHex(await shareOuterKey(ID, SECRET))).toBe(V.outer);
    expect(toHex(await shareInnerKey(ID, SECRET, null))).toBe(V.inner);
    const p = await sharePasswordKey(PASSWORD, { ...KDF, salt: SALT });
    expect(toHex(p)).toBe(V.P);
    expect(toHex(await shareInnerKey(ID, SECRET, p))).toBe(V.innerPw);
  });

  it('follow the documented recipe', async () => {
    expect(await hkdf(SECRET, ID, 'vf1/share/access')).toBe(V.token);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', fromHex(V.token)));
    expect(toHex(digest)).toBe(V.accessHash);
    expect(await hkdf(SECRET, ID, 'vf1/share/outer')).toBe(V.outer);
    expect(await hkdf(SECRET, ID, 'vf1/share/inner')).toBe(V.inner);
    const p = await argon2id(utf8(PASSWORD.normalize('NFC')), SALT, 19456, 2, 1);
    expect(toHex(p)).toBe(V.P);
    const ikm = new Uint8Array([...SECRET, ...p]);
    expect(await hkdf(ikm, ID, 'vf1/share/inner-pw')).toBe(V.innerPw);
  });

  it('refuse malformed links and parameters outside the caps', async () => {
    expect(() => fromBase64Url(V.idUrl.slice(1), 16)).toThrow();
    expect(() => fromBase64Url(`${V.idUrl.slice(0, -1)}+`, 16)).toThrow();
    expect(() => fromBase64Url(V.secretUrl, 16)).toThrow();
    expect(Array.from(fromBase64Url(V.idUrl, 16))).toEqual(Array.from(ID));
    await expect(shareAccessToken(ID.subarray(1), SECRET)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(
      sharePasswordKey(PASSWORD, { ...KDF, m: 2 * 1024 * 1024, salt: SALT }),
    ).rejects.toMatchObject({ code: 'KDF_PARAMS' });
    await expect(
      sharePasswordKey(PASSWORD, { ...KDF, salt: SALT.subarray(2) }),
    ).rejects.toMatchObject({ code: 'KDF_PARAMS' });
  });
});

describe('share link sessions', { timeout: 60_000 }, () => {
  const { client } = localClient();

  it('a password link: the note with the link alone, the content with the password only', async () => {
    const made = await client.createShare({ password: 'correct horse', kdf: FAST_KDF as never });
    expect(made.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(made.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.kdf?.salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const itemId = asItemId(made.uuid);
    const note = await client.encryptItem(made.outer, itemId, 0, { title: 'for the notary' });
    const content = await client.encryptItem(made.inner, itemId, 1, {
      title: 'Wi-Fi',
      password: 'hunter2',
    });
    const meta = { name: 'contract.pdf', mime: 'application/pdf', size: 10, modified: 1 };
    const encMeta = await client.encryptMeta(made.inner, asFileId(made.uuid), null, meta);

    // The recipient, from the URL alone.
    const got = await client.openShare(made.id, made.secret);
    expect(got.token).toBe(made.token);
    expect(await shareAccessHash(fromBase64Url(got.token, 32))).toBe(made.accessHash);
    expect(await client.decryptItem(got.outer, itemId, 0, note)).toEqual({
      title: 'for the notary',
    });
    const right = await client.openShareContent(made.id, made.secret, {
      password: 'correct horse',
      kdf: made.kdf!,
    });
    expect(await client.decryptItem(right, itemId, 1, content)).toMatchObject({
      password: 'hunter2',
    });
    expect(await client.decryptMeta(right, asFileId(made.uuid), null, encMeta)).toEqual(meta);
    const wrong = await client.openShareContent(made.id, made.secret, {
      password: 'wrong horse',
      kdf: made.kdf!,
    });
    await expect(client.decryptItem(wrong, itemId, 1, content)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    // Without the password, the link alone opens nothing of the content.
    const none = await client.openShareContent(made.id, made.secret, null);
    await expect(client.decryptItem(none, itemId, 1, content)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    // The outer key is not the inner one.
    await expect(client.decryptItem(got.outer, itemId, 1, content)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
  });

  it('a link without a password opens its content from the link; another link does not', async () => {
    const made = await client.createShare();
    expect(made.kdf).toBeNull();
    const other = await client.createShare();
    expect(other.id).not.toBe(made.id);
    const itemId = asItemId(made.uuid);
    const text = await client.encryptItem(made.inner, itemId, 1, { title: '', notes: 'hello' });
    const inner = await client.openShareContent(made.id, made.secret, null);
    expect(await client.decryptItem(inner, itemId, 1, text)).toEqual({ title: '', notes: 'hello' });
    const wrongLink = await client.openShareContent(other.id, other.secret, null);
    await expect(client.decryptItem(wrongLink, itemId, 1, text)).rejects.toMatchObject({
      code: 'DECRYPT_FAILED',
    });
    await expect(client.openShare(made.id, 'short')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
