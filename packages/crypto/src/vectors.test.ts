// The committed vf1 vectors (packages/crypto/vectors/vf1.json): the implementation reproduces
// them exactly, and each output is re-checked from its documented recipe with raw primitives.
import { describe, expect, it } from 'vitest';
import vectors from '../vectors/vf1.json';
import { concat, fromBase64, fromHex, toBase64, toHex, utf8, uuidBytes } from './bytes.ts';
import {
  aesGcmDecrypt,
  argon2id,
  hkdfBytes,
  hmacSign,
  importAesKey,
  type Bytes,
} from './primitives.ts';
import { buildVectors } from './vectors.ts';

/** The AAD encoding, written out again from docs/vault-format.md: label and fields, each u32be-length-prefixed. */
function aad(label: string, ...parts: Uint8Array[]): Bytes {
  const out: number[] = [];
  for (const p of [utf8(label), ...parts]) {
    out.push(
      p.length >>> 24,
      (p.length >>> 16) & 255,
      (p.length >>> 8) & 255,
      p.length & 255,
      ...p,
    );
  }
  return Uint8Array.from(out);
}
const hmacKey = (raw: string) =>
  crypto.subtle.importKey('raw', fromHex(raw), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
async function open(rawKey: string, sealed: Bytes, ad: Bytes) {
  return aesGcmDecrypt(
    await importAesKey(fromHex(rawKey)),
    sealed.slice(0, 12),
    sealed.slice(12),
    ad,
  );
}
const vault = uuidBytes(vectors.inputs.vaultId);

describe('vf1 test vectors', () => {
  it('are reproduced exactly by the implementation', async () => {
    expect(JSON.parse(JSON.stringify(await buildVectors()))).toEqual(vectors);
  });

  it('derive pwKey, KEK and the slot as documented', async () => {
    const { inputs } = vectors;
    expect(toHex(utf8(inputs.password.normalize('NFC')))).toBe(inputs.passwordNfcUtf8);
    const pwKey = await argon2id(
      fromHex(inputs.passwordNfcUtf8),
      fromHex(inputs.salt),
      19456,
      2,
      1,
    );
    expect(toHex(pwKey)).toBe(vectors.pwKey);
    expect(toHex(await hkdfBytes(pwKey, vault, utf8('vf1/kek'), 32))).toBe(vectors.kek);
    const kdf = Uint8Array.of(1, 0, 0, 0x4c, 0x00, 0, 0, 0, 2, 0, 0, 0, 1);
    const slotId = uuidBytes(vectors.slot.id);
    const ad = aad('vf1/slot', vault, slotId, kdf, fromBase64(vectors.slot.salt));
    const wrapped = fromBase64(vectors.slot.wrapped);
    expect(toHex(await open(vectors.kek, wrapped, ad))).toBe(inputs.vmk);
    // commit = HMAC(K_commit, AAD | wrapped), K_commit = HKDF(KEKraw, vaultId16, "vf1/commit").
    const kCommit = await hkdfBytes(fromHex(vectors.kek), vault, utf8('vf1/commit'), 32);
    const commit = await hmacSign(await hmacKey(toHex(kCommit)), concat(ad, wrapped));
    expect(toBase64(commit)).toBe(vectors.slot.commit);
  });

  it('derive the vault subkeys with HKDF(VMK, vaultId, label)', async () => {
    for (const [name, value] of Object.entries(vectors.subkeys)) {
      const okm = await hkdfBytes(fromHex(vectors.inputs.vmk), vault, utf8(`vf1/${name}`), 32);
      expect(toHex(okm)).toBe(value);
    }
  });

  it('wrap FK, MAC the header and seal chunks as documented', async () => {
    for (const f of vectors.files) {
      const fileId = uuidBytes(f.fileId);
      const fk = await open(
        vectors.subkeys.wrap,
        fromBase64(f.wrappedKey),
        aad('vf1/fk', vault, fileId),
      );
      expect(toHex(fk)).toBe(f.fk);
      const header = fromHex(f.header);
      expect(toHex(header.subarray(0, 8))).toBe('8956463101011200');
      expect(toHex(header.subarray(8, 24))).toBe(toHex(fileId));
      expect(toHex(header.subarray(24, 40))).toBe(f.fileNonce);
      const mac = await hmacSign(await hmacKey(f.kHdr), header.slice(0, 40));
      expect(toHex(mac)).toBe(toHex(header.subarray(40)));
      expect(toHex(await hkdfBytes(fk, fromHex(f.fileNonce), utf8('vf1/payload'), 32))).toBe(
        f.kPay,
      );
      if ('ciphertext' in f && f.ciphertext !== undefined) {
        const nonce = fromHex('0000000000000000000000' + '01');
        const key = await importAesKey(fromHex(f.kPay));
        const chunk = fromHex(f.ciphertext).slice(72);
        expect(toHex(await aesGcmDecrypt(key, nonce, chunk, header))).toBe(f.plaintext);
      }
    }
  });

  it('encrypt metadata and items and compute the look-up as documented', async () => {
    const { meta, item, lookup, subkeys } = vectors;
    const metaAd = aad('vf1/meta', vault, uuidBytes(meta.fileId), uuidBytes(meta.parentId));
    const metaPlain = await open(subkeys.meta, fromBase64(meta.encMeta), metaAd);
    expect(metaPlain.length % 64).toBe(0);
    expect(JSON.parse(new TextDecoder().decode(metaPlain))).toEqual(meta.value);
    const rev = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, item.revision);
    const itemPlain = await open(
      subkeys.item,
      fromBase64(item.data),
      aad('vf1/item', vault, uuidBytes(item.itemId), rev),
    );
    expect(JSON.parse(new TextDecoder().decode(itemPlain))).toEqual(item.value);
    const data = concat(utf8(lookup.parentId), Uint8Array.of(0), utf8(lookup.name));
    expect(toHex(await hmacSign(await hmacKey(subkeys.lookup), data))).toBe(lookup.hmac);
  });
});
