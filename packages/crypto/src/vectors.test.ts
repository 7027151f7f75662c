// The committed vf1 vectors (packages/crypto/vectors/vf1.json): the implementation reproduces
// them exactly, and each output is re-checked from its documented recipe with raw primitives.
import { describe, expect, it } from 'vitest';
import vectors from '../vectors/vf1.json';
import {
  concat,
  fromBase32Groups,
  fromBase64,
  fromHex,
  toBase64,
  toHex,
  u64be,
  utf8,
  uuidBytes,
} from './bytes.ts';
import { planRange } from './chunk.ts';
import { asVaultId } from './ids.ts';
import type { Manifest } from './manifest.ts';
import {
  aesGcmDecrypt,
  aesGcmEncrypt,
  argon2id,
  hkdfBytes,
  hmacSign,
  importAesKey,
  pbkdf2Sha256,
  sha256,
  type Bytes,
} from './primitives.ts';
import type { KeySlot, VaultKey } from './slot.ts';
import { localClient } from './testkit.ts';
import { buildVectors, patternPlaintext } from './vectors.ts';

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

const kdfBytes = (k: KeySlot['kdf']) =>
  k.alg === 'argon2id'
    ? concat(Uint8Array.of(1), u64be(k.m).slice(4), u64be(k.t).slice(4), u64be(k.p).slice(4))
    : k.alg === 'pbkdf2-sha256'
      ? concat(Uint8Array.of(2), u64be(k.iterations).slice(4))
      : Uint8Array.of(0);

/** Opens a committed slot from its raw KEK: checks the commit, then AES-GCM; returns the VMK. */
async function openCommitted(kek: string, slot: KeySlot) {
  const ad = aad('vf1/slot', vault, uuidBytes(slot.id), kdfBytes(slot.kdf), fromBase64(slot.salt));
  const wrapped = fromBase64(slot.wrapped);
  const kCommit = await hkdfBytes(fromHex(kek), vault, utf8('vf1/commit'), 32);
  const commit = await hmacSign(await hmacKey(toHex(kCommit)), concat(ad, wrapped));
  expect(toBase64(commit)).toBe(slot.commit);
  return toHex(await open(kek, wrapped, ad));
}

/** slot fingerprint, from the recipe. */
async function fingerprint(slot: KeySlot) {
  const commit = slot.commit === undefined ? new Uint8Array(0) : fromBase64(slot.commit);
  const data = aad(
    'vf1/slot-fp',
    utf8(slot.id),
    utf8(slot.kind),
    kdfBytes(slot.kdf),
    fromBase64(slot.salt),
    fromBase64(slot.wrapped),
    commit,
  );
  return toHex(await sha256(data));
}

describe('vf1 test vectors', { timeout: 30_000 }, () => {
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

  it('checksum each file with the content hash (4 MiB blocks), never the whole-file SHA-256', async () => {
    const BLOCK = 4 * 1024 * 1024;
    const hex = async (b: Bytes) => toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', b)));
    let blocksSeen = 0;
    for (const f of vectors.files) {
      // The whole ciphertext, rebuilt from the recipe: header | chunk_0 | ... | chunk_last.
      const plain =
        f.patternSize !== undefined ? patternPlaintext(f.patternSize) : fromHex(f.plaintext ?? '');
      const header = fromHex(f.header);
      const key = await importAesKey(fromHex(f.kPay));
      const count = Math.max(1, Math.ceil(plain.length / 262_144));
      const chunks: Bytes[] = [header];
      for (let i = 0; i < count; i++) {
        const nonce = new Uint8Array(12);
        new DataView(nonce.buffer).setUint32(7, i); // uint88be(i): the vectors' indices fit 32 bits
        nonce[11] = i === count - 1 ? 1 : 0;
        const part = plain.slice(i * 262_144, (i + 1) * 262_144);
        chunks.push(await aesGcmEncrypt(key, nonce, part, header));
      }
      const ct = concat(...chunks);
      expect(ct.length).toBe(f.ciphertextSize);
      if ('ciphertext' in f && f.ciphertext !== undefined) expect(toHex(ct)).toBe(f.ciphertext);
      else expect(toHex(ct.subarray(-48))).toBe(f.ciphertextTail);

      // content hash = SHA-256(SHA-256(block_0) | SHA-256(block_1) | ...), blocks of 4 MiB.
      const digests: Bytes[] = [];
      for (let at = 0; at < ct.length; at += BLOCK) {
        digests.push(fromHex(await hex(ct.slice(at, at + BLOCK))));
      }
      blocksSeen = Math.max(blocksSeen, digests.length);
      expect(f.checksum_algorithm).toBe('content-hash-4m');
      expect(f.checksum).toBe(await hex(concat(...digests)));
      expect(f.checksum).not.toBe(await hex(ct)); // the old whole-file SHA-256
    }
    expect(blocksSeen).toBe(2); // one vector spans more than one block
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

  it('derive the PBKDF2, recovery and legacy slots and every fingerprint as documented', async () => {
    const { pbkdf2Slot: p, recoverySlot: r, legacySlot: l, inputs } = vectors;
    const pw = fromHex(inputs.passwordNfcUtf8);
    const pwKey = await pbkdf2Sha256(pw, fromHex(p.inputs.salt), 600_000);
    expect(toHex(pwKey)).toBe(p.pwKey);
    expect(toHex(await hkdfBytes(pwKey, vault, utf8('vf1/kek'), 32))).toBe(p.kek);
    expect(await openCommitted(p.kek, p.slot as KeySlot)).toBe(inputs.vmk);

    expect(toHex(fromBase32Groups(r.recoveryKey)!)).toBe(r.inputs.recoveryKeyBytes);
    const rk = fromHex(r.inputs.recoveryKeyBytes);
    expect(toHex(await hkdfBytes(rk, vault, utf8('vf1/kek'), 32))).toBe(r.kek);
    expect(await openCommitted(r.kek, r.slot as KeySlot)).toBe(inputs.vmk);

    // The legacy slot: no commit, the id as UTF-8 text in the AAD.
    const legacy = l.slot as KeySlot;
    const lKey = await argon2id(pw, fromHex(l.inputs.salt), 19456, 2, 1);
    const lKek = toHex(await hkdfBytes(lKey, vault, utf8('vf1/kek'), 32));
    const kdf = kdfBytes(legacy.kdf);
    const ad = aad('vf1/slot', vault, utf8(legacy.id), kdf, fromBase64(legacy.salt));
    expect(toHex(await open(lKek, fromBase64(legacy.wrapped), ad))).toBe(inputs.vmk);
    expect(legacy.commit).toBeUndefined();

    expect(await fingerprint(vectors.slot as KeySlot)).toBe(vectors.slotFingerprint);
    for (const v of [p, r, l]) expect(await fingerprint(v.slot as KeySlot)).toBe(v.fingerprint);
  });

  it('derive the passkey slot as documented: commit, sealed key pair, auth, ECDH wrap, escrow', async () => {
    const { passkeySlot: p, inputs, subkeys } = vectors;
    const slot = p.slot as KeySlot;
    const prf = fromHex(p.inputs.prf);
    const kek = await hkdfBytes(prf, vault, utf8('vf1/passkey-kek'), 32);
    expect(toHex(kek)).toBe(p.kek);
    const credentialId = fromBase64(
      p.inputs.credentialId.replace(/-/g, '+').replace(/_/g, '/') + '==',
    );
    expect(toBase64(fromBase64(slot.publicKey!))).toBe(toBase64(fromHex(p.inputs.slotKey.q)));
    const ad = aad(
      'vf1/passkey-slot',
      vault,
      uuidBytes(slot.id),
      Uint8Array.of(3),
      fromHex(p.inputs.salt),
      credentialId,
      fromHex(p.inputs.slotKey.q),
      utf8(p.inputs.name),
    );
    // commit = HMAC(HKDF(KEKraw, vaultId16, "vf1/commit"), AAD | sealed), before anything opens.
    const sealed = fromBase64(slot.sealed!);
    const kCommit = await hkdfBytes(kek, vault, utf8('vf1/commit'), 32);
    const commit = await hmacSign(await hmacKey(toHex(kCommit)), concat(ad, sealed));
    expect(toBase64(commit)).toBe(slot.commit);
    // sealed = nonce12 | AES-256-GCM(KEKraw, d32 | A32, AAD)
    const secret = await open(p.kek, sealed, ad);
    expect(toHex(secret)).toBe(p.inputs.slotKey.d + p.inputs.authKey);
    // auth = HMAC(A, AAD | wrapped)
    const wrapped = fromBase64(slot.wrapped);
    const auth = await hmacSign(await hmacKey(p.inputs.authKey), concat(ad, wrapped));
    expect(toBase64(auth)).toBe(slot.auth);
    // wrapped = E65 | nonce12 | AES-256-GCM(HKDF(ECDH(d, E), vaultId16, "vf1/passkey-wrap"), VMK, AAD)
    expect(toHex(wrapped.subarray(0, 65))).toBe(p.inputs.ephemeral.q);
    const P256 = { name: 'ECDH', namedCurve: 'P-256' } as const;
    const b64u = (h: string) =>
      toBase64(fromHex(h)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const q = p.inputs.slotKey.q;
    const priv = await crypto.subtle.importKey(
      'jwk',
      {
        kty: 'EC',
        crv: 'P-256',
        d: b64u(p.inputs.slotKey.d),
        x: b64u(q.slice(2, 66)),
        y: b64u(q.slice(66)),
      },
      P256,
      false,
      ['deriveBits'],
    );
    const eph = await crypto.subtle.importKey('raw', wrapped.slice(0, 65), P256, false, []);
    const shared = new Uint8Array(
      await crypto.subtle.deriveBits({ name: 'ECDH', public: eph }, priv, 256),
    );
    const kWrap = await hkdfBytes(shared, vault, utf8('vf1/passkey-wrap'), 32);
    expect(toHex(await open(toHex(kWrap), wrapped.slice(65), ad))).toBe(inputs.vmk);
    // escrow = nonce12 | AES-256-GCM(K_wrap, A, fields("vf1/passkey-escrow", vaultId16, slotId16, Q65))
    const escrowAd = aad('vf1/passkey-escrow', vault, uuidBytes(slot.id), fromHex(q));
    expect(toHex(await open(subkeys.wrap, fromBase64(slot.escrow!), escrowAd))).toBe(
      p.inputs.authKey,
    );
    // fingerprint: fields("vf1/slot-fp", id, "passkey", 03, salt, wrapped, commit, credentialId,
    // Q, name, sealed, auth, escrow)
    const fp = aad(
      'vf1/slot-fp',
      utf8(slot.id),
      utf8('passkey'),
      Uint8Array.of(3),
      fromHex(p.inputs.salt),
      wrapped,
      fromBase64(slot.commit!),
      credentialId,
      fromHex(q),
      utf8(p.inputs.name),
      sealed,
      fromBase64(slot.auth!),
      fromBase64(slot.escrow!),
    );
    expect(toHex(await sha256(fp))).toBe(p.fingerprint);
  });

  it('plan the documented range: plaintext [start, end), ciphertext [fetchStart, fetchEnd)', () => {
    const { range } = vectors;
    expect(planRange(range.ciphertextSize, range.start, range.end)).toEqual(range.plan);
    // Chunk i is at 72 + i * 262,160; the slice runs to the end of the last chunk it needs.
    expect(range.plan.fetchStart).toBe(72 + range.plan.firstChunk * 262_160);
    expect(range.plan.length).toBe(range.end - range.start);
  });

  it('plan the edges of a range as documented, and refuse a start past the end', () => {
    for (const e of vectors.rangeEdges) {
      expect(planRange(e.ciphertextSize, e.start, e.end), e.case).toEqual(e.plan);
      // The plaintext size P the ciphertext holds, and the recipe of "Ranges".
      const chunks = Math.ceil((e.ciphertextSize - 72) / 262_160);
      const size = e.ciphertextSize - 72 - 16 * chunks;
      const stop = Math.min(e.end, size);
      expect(e.plan.finalChunk, e.case).toBe(Math.max(0, Math.ceil(size / 262_144) - 1));
      expect(e.plan.length, e.case).toBe(stop - e.start);
      if (e.start === stop) {
        expect(e.plan, e.case).toMatchObject({
          fetchStart: 0,
          fetchEnd: 0,
          firstChunk: 0,
          chunkCount: 0,
          skip: 0,
        });
      } else {
        const first = Math.floor(e.start / 262_144);
        const last = Math.floor((stop - 1) / 262_144);
        expect(e.plan, e.case).toMatchObject({
          fetchStart: 72 + first * 262_160,
          fetchEnd: Math.min(e.ciphertextSize, 72 + (last + 1) * 262_160),
          firstChunk: first,
          chunkCount: last - first + 1,
          skip: e.start - first * 262_144,
        });
      }
    }
    expect(vectors.rangeEdges.some((e) => e.plan.chunkCount === 0)).toBe(true);
    for (const r of vectors.refused.range) {
      expect(() => planRange(r.ciphertextSize, r.start, r.end), r.case).toThrow(
        expect.objectContaining({ code: r.error }) as Error,
      );
    }
  });

  it('MAC and chain the manifest as documented', async () => {
    const { file, item } = vectors.manifest.entries;
    const fileData = aad(
      'vf1/file-entry',
      uuidBytes(file.id),
      fromBase64(file.wrapped_key),
      fromBase64(file.enc_meta),
      utf8(file.name_lookup),
      utf8(file.checksum),
      u64be(file.ciphertext_size),
    );
    expect(toHex((await sha256(fileData)).subarray(0, 16))).toBe(file.digest);
    const itemData = aad(
      'vf1/item-entry',
      uuidBytes(item.id),
      u64be(item.revision),
      fromBase64(item.data),
    );
    expect(toHex((await sha256(itemData)).subarray(0, 16))).toBe(item.digest);

    const kMan = await hkdfBytes(fromHex(vectors.inputs.vmk), vault, utf8('vf1/manifest'), 32);
    let prev = '';
    for (const { manifest: m, body, hash } of vectors.manifest.versions) {
      expect(m.prev).toBe(prev);
      const v = m.vault;
      const expected = aad(
        'vf1/manifest',
        vault,
        u64be(m.version),
        fromHex(m.prev),
        utf8(v.name),
        utf8(v.description),
        utf8(v.vault_type),
        utf8(v.provider_type),
        utf8(v.storage_folder),
        concat(...m.slots.map(fromHex)),
        concat(...m.files.flatMap(([id, d]) => [uuidBytes(id as string), fromHex(d as string)])),
        concat(
          ...m.secrets.flatMap(([id, rev, d]) => [
            uuidBytes(id as string),
            u64be(rev as number),
            fromHex(d as string),
          ]),
        ),
      );
      expect(toHex(expected)).toBe(body);
      const mac = await hmacSign(await hmacKey(toHex(kMan)), expected);
      expect(toHex(mac)).toBe(m.mac);
      expect(toHex(await sha256(concat(expected, mac)))).toBe(hash);
      prev = hash;
    }
  });

  it('refuse every input of the "refused" list, and accept their honest counterparts', async () => {
    const { client } = localClient();
    const id = asVaultId(vectors.inputs.vaultId);
    const pw = vectors.inputs.password;
    const honest: VaultKey = { format: 'vf1', slots: [vectors.slot as KeySlot] };
    const session = await client.unlockVault(id, honest, pw, { allowLegacy: false });
    const legacy: VaultKey = { format: 'vf1', slots: [vectors.legacySlot.slot as KeySlot] };
    await expect(client.unlockVault(id, legacy, pw, { allowLegacy: true })).resolves.toBeTruthy();
    for (const c of vectors.refused.unlock) {
      const err = await client
        .unlockVault(id, c.key as VaultKey, c.password, { allowLegacy: c.allowLegacy })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err, c.case).toMatchObject({ code: c.error });
    }
    // Passkey slots: the honest one opens with its PRF output, every refused one does not.
    const withPasskey: VaultKey = {
      format: 'vf1',
      slots: [vectors.slot as KeySlot, vectors.passkeySlot.slot as KeySlot],
    };
    const p = vectors.passkeySlot.inputs;
    await expect(
      client.unlockWithPasskey(id, withPasskey, p.credentialId, fromHex(p.prf)),
    ).resolves.toBeTruthy();
    for (const c of vectors.refused.passkeyUnlock) {
      const err = await client
        .unlockWithPasskey(asVaultId(c.vaultId), c.key as VaultKey, c.credentialId, fromHex(c.prf))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err, c.case).toMatchObject({ code: c.error });
    }
    for (const { manifest } of vectors.manifest.versions) {
      expect(await client.verifyManifest(session, manifest as Manifest)).toMatchObject({
        ok: true,
      });
    }
    for (const c of vectors.refused.manifest) {
      const res = await client.verifyManifest(session, c.manifest as Manifest);
      expect(res, c.case).toEqual({ ok: false, hash: '' });
    }
  });
});
