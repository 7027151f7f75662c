// Builds the vf1 test vectors (packages/crypto/vectors/vf1.json) from fixed keys and nonces by
// running the real implementation with scripted randomness. vectors.test.ts checks the committed
// JSON against this and, independently, against raw HKDF/AES-GCM/HMAC steps; another
// implementation can check itself against the JSON alone (docs/vault-format.md, "Test vectors").
import { fromBase64, fromHex, toBase32Groups, toBase64, toHex, utf8, uuidBytes } from './bytes.ts';
import { CHUNK_BYTES, planRange } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import { contentHash } from './contentHash.ts';
import { asFileId, asFolderId, asItemId, asSlotId, asVaultId } from './ids.ts';
import { derivePasswordKey, type KdfParams } from './kdf.ts';
import { deriveVaultKeys, LABELS } from './keys.ts';
import {
  fileEntryDigest,
  itemEntryDigest,
  manifestBody,
  type Manifest,
  type UnsignedManifest,
} from './manifest.ts';
import { hkdfBytes } from './primitives.ts';
import type { FileMeta, SecretItem } from './records.ts';
import { inProcessTransport } from './rpc.ts';
import { createCryptoService } from './service.ts';
import { PASSKEY_LABELS, sealPasskeySlot } from './passkey.ts';
import { sealSlot, slotFingerprint, type KeySlot, type VaultKey } from './slot.ts';
import { legacySlot, readAll, scriptedRandom, streamOf } from './testkit.ts';

/** n bytes counting up from `start` (mod 256), as hex. */
const run = (start: number, n: number) =>
  toHex(Uint8Array.from({ length: n }, (_, i) => (start + i) & 0xff));

/** The multi-chunk plaintext: byte i = i mod 251. */
export const patternPlaintext = (size: number) =>
  Uint8Array.from({ length: size }, (_, i) => i % 251);

export const VECTOR_INPUTS = {
  vaultId: '8d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f',
  /** "Pässword" with a combining diaeresis: NFC turns it into U+00E4 before hashing. */
  password: 'Pa\u0308ssword',
  kdf: { alg: 'argon2id', m: 19456, t: 2, p: 1 } as KdfParams,
  vmk: run(0x00, 32),
  slotIdRandom: run(0xa0, 16),
  salt: run(0x20, 16),
  slotNonce: run(0x30, 12),
  files: [
    { fileId: 'fa1e0000-0000-4000-8000-000000000001', plaintext: '', fk: run(0x40, 32) },
    {
      fileId: 'fa1e0000-0000-4000-8000-000000000002',
      plaintext: toHex(utf8('hello')),
      fk: run(0x41, 32),
    },
    {
      fileId: 'fa1e0000-0000-4000-8000-000000000003',
      patternSize: CHUNK_BYTES + 1,
      fk: run(0x42, 32),
    },
    /** 16 full chunks: a ciphertext of 4,194,632 bytes, two blocks of the content hash. */
    {
      fileId: 'fa1e0000-0000-4000-8000-000000000004',
      patternSize: 16 * CHUNK_BYTES,
      fk: run(0x43, 32),
    },
  ],
  /** One K_wrap nonce per file: a nonce is never reused under one key, even in vectors. */
  wrapNonces: [run(0x60, 12), run(0x61, 12), run(0x62, 12), run(0x63, 12)],
  fileNonce: run(0x70, 16),
  meta: {
    fileId: 'fa1e0000-0000-4000-8000-000000000002',
    parentId: 'f01de000-0000-4000-8000-000000000001',
    nonce: run(0x80, 12),
    value: {
      name: 'hello.txt',
      mime: 'text/plain',
      size: 5,
      modified: 1_763_769_600_000,
    } as FileMeta,
  },
  item: {
    itemId: '5ec12e70-0000-4000-8000-000000000001',
    revision: 7,
    nonce: run(0x90, 12),
    value: {
      title: 'Bank',
      username: 'alice',
      password: 'hunter2',
      url: 'https://bank.example',
    } as SecretItem,
  },
  lookup: { parentId: 'f01de000-0000-4000-8000-000000000001', name: 'hello.txt' },
  pbkdf2Slot: {
    id: 'b0b1b2b3-b4b5-46b7-b8b9-babbbcbdbebf',
    kdf: { alg: 'pbkdf2-sha256', iterations: 600_000 } as KdfParams,
    salt: run(0xc0, 16),
    nonce: run(0xd0, 12),
  },
  recoverySlot: {
    id: 'e0e1e2e3-e4e5-46e7-a8e9-eaebecedeeef',
    recoveryKeyBytes: run(0xf0, 32),
    salt: run(0x10, 16),
    nonce: run(0x50, 12),
  },
  /**
   * A passkey slot (issue 30): a PRF output standing in for the passkey's, and fixed P-256 key
   * pairs for the slot (d, Q) and the wrap's ephemeral (e, E).
   */
  passkeySlot: {
    slotIdRandom: run(0xb8, 16),
    credentialId: 'AAECAwQFBgcICQoLDA0ODw',
    name: 'Passkey added 27 Nov 2026',
    salt: run(0xa8, 32),
    prf: run(0xe0, 32),
    slotKey: {
      d: 'd66fb7743e4019bbd920e4e6400702e8730f14dabad1d425c621229a22081c9e',
      q: '04f43c310e3957230b2043868557b8ce801e6198392eec28f7f96038d792bd3cf3ce47b95e5248bc9766849be79709701119628018624137615bbe2d3518c552ac',
    },
    authKey: run(0x68, 32),
    sealNonce: run(0x78, 12),
    ephemeral: {
      d: 'aac84894e3f53a23cf96546f081a87fd502ba2c9b5c8404ef5faa7497cd8b240',
      q: '041d3c62eb3788ee2d25d664756a204ea555870d11e261698e64f92f95f38d83434d0d409ffc329a2bed02957a473064dac36d152321434d6f4bc5b4def0a2c66b',
    },
    wrapNonce: run(0x88, 12),
    escrowNonce: run(0x98, 12),
  },
  /** A slot as written before ADR 0007 (no commit; UTF-8 id in the AAD). */
  legacySlot: { id: 'legacy-slot-1', salt: run(0x25, 16), nonce: run(0x35, 12) },
  /** Plaintext [start, end) of the multi-chunk file: the last 5 bytes of chunk 0, then chunk 1. */
  range: { start: CHUNK_BYTES - 5, end: CHUNK_BYTES + 1 },
  /** The edges of planRange: empty ranges, an end past the end of the file (clamped). */
  rangeEdges: [
    { case: 'empty range inside the file', file: 2, start: 10, end: 10 },
    { case: 'start at the end, end past it: empty', file: 2, start: CHUNK_BYTES + 1, end: 2 ** 20 },
    { case: 'end past the end: clamped', file: 2, start: 0, end: 2 ** 20 },
    { case: 'the empty file', file: 0, start: 0, end: 10 },
    {
      case: 'the last byte of a 16-chunk file',
      file: 3,
      start: 16 * CHUNK_BYTES - 1,
      end: 2 ** 30,
    },
  ],
  /** planRange refuses these with INVALID_INPUT. */
  rangeRefused: [
    { case: 'start past the end', file: 2, start: CHUNK_BYTES + 2, end: CHUNK_BYTES + 3 },
    { case: 'empty range past the end', file: 2, start: CHUNK_BYTES + 2, end: CHUNK_BYTES + 2 },
    { case: 'start after end', file: 2, start: 10, end: 5 },
    { case: 'negative start', file: 2, start: -1, end: 5 },
    { case: 'not an integer', file: 2, start: 0.5, end: 5 },
    {
      case: 'ciphertext shorter than a header and a tag',
      file: null,
      ciphertextSize: 87,
      start: 0,
      end: 0,
    },
    {
      case: 'no vf1 ciphertext has this size (a full chunk, then 1 to 16 bytes)',
      file: null,
      ciphertextSize: 72 + 262_160 + 1,
      start: 0,
      end: 1,
    },
  ],
  manifestVault: {
    name: 'Personal',
    description: '',
    vault_type: 'secrets',
    provider_type: 'server',
    storage_folder: '',
  },
} as const;

const HANDLE = '00'.repeat(16); // session and job handles consume randomness too

export async function buildVectors() {
  const v = VECTOR_INPUTS;
  const random = scriptedRandom([
    v.vmk,
    v.slotIdRandom,
    v.salt,
    v.slotNonce,
    HANDLE,
    ...v.files.flatMap((f, i) => [f.fk, v.wrapNonces[i] ?? '', v.fileNonce, HANDLE]),
    v.meta.nonce,
    v.item.nonce,
  ]);
  const client = createCryptoClient(inProcessTransport(createCryptoService({ random })));
  const { session, key } = await client.createVault(asVaultId(v.vaultId), v.password, v.kdf);
  const vaultSalt = uuidBytes(v.vaultId);
  const pwKey = await derivePasswordKey(v.password, fromHex(v.salt), v.kdf);
  const sub = async (ikm: string, salt: Uint8Array<ArrayBuffer>, label: string) =>
    toHex(await hkdfBytes(fromHex(ikm), salt, utf8(label), 32));

  const files = [];
  for (const [i, f] of v.files.entries()) {
    const plain = 'patternSize' in f ? patternPlaintext(f.patternSize) : fromHex(f.plaintext);
    const enc = await client.encryptFileStream(session, asFileId(f.fileId), streamOf(plain));
    const ct = await readAll(enc.ciphertext);
    files.push({
      ...f,
      wrapNonce: v.wrapNonces[i],
      fileNonce: v.fileNonce,
      kPay: await sub(f.fk, fromHex(v.fileNonce), LABELS.payload),
      kHdr: await sub(f.fk, fromHex(v.fileNonce), LABELS.header),
      wrappedKey: enc.wrappedKey,
      header: toHex(ct.subarray(0, 72)),
      ciphertextSize: ct.length,
      ...(ct.length <= 1024
        ? { ciphertext: toHex(ct) }
        : { ciphertextTail: toHex(ct.subarray(-48)) }),
      // The file record's checksum as an upload writes it ([Note: content hash]).
      checksum: await contentHash(ct),
      checksum_algorithm: 'content-hash-4m',
    });
  }
  const { meta, item, lookup } = v;
  const encMeta = await client.encryptMeta(
    session,
    asFileId(meta.fileId),
    asFolderId(meta.parentId),
    meta.value,
  );
  const itemData = await client.encryptItem(
    session,
    asItemId(item.itemId),
    item.revision,
    item.value,
  );
  const lookupHmac = await client.lookupName(session, asFolderId(lookup.parentId), lookup.name);
  const vaultId = asVaultId(v.vaultId);
  const vmk = fromHex(v.vmk);
  const slot = key.slots[0] as KeySlot;

  const p = v.pbkdf2Slot;
  const pbkdf2Slot = await sealSlot(
    vaultId,
    { id: asSlotId(p.id), kind: 'password', kdf: p.kdf },
    v.password,
    vmk,
    scriptedRandom([p.salt, p.nonce]),
  );
  const pbkdf2Key = await derivePasswordKey(v.password, fromHex(p.salt), p.kdf);
  const r = v.recoverySlot;
  const recoveryKey = toBase32Groups(fromHex(r.recoveryKeyBytes));
  const recoverySlot = await sealSlot(
    vaultId,
    { id: asSlotId(r.id), kind: 'recovery', kdf: { alg: 'none' } },
    recoveryKey,
    vmk,
    scriptedRandom([r.salt, r.nonce]),
  );
  const l = v.legacySlot;
  const legacy = await legacySlot(
    vaultId,
    v.password,
    v.kdf,
    vmk,
    l.id,
    scriptedRandom([l.salt, l.nonce]),
  );

  // The passkey slot, sealed with scripted randomness and fixed key pairs.
  const k = v.passkeySlot;
  const pair = (h: { d: string; q: string }) => () =>
    Promise.resolve({ d: fromHex(h.d), q: fromHex(h.q) });
  const passkeySlot = await sealPasskeySlot(
    vaultId,
    { credentialId: k.credentialId, name: k.name, salt: fromHex(k.salt), prf: fromHex(k.prf) },
    vmk,
    await deriveVaultKeys(fromHex(v.vmk), vaultId),
    scriptedRandom([k.slotIdRandom, k.authKey, k.sealNonce, k.wrapNonce, k.escrowNonce]),
    { slotKey: pair(k.slotKey), ephemeral: pair(k.ephemeral) },
  );
  const passkeyKek = await sub(k.prf, vaultSalt, PASSKEY_LABELS.kek);
  const passkeyOne = (...extra: KeySlot[]): VaultKey => ({
    format: 'vf1',
    slots: [slot, passkeySlot, ...extra],
  });
  const withPasskey = (patch: Partial<KeySlot>): VaultKey => ({
    format: 'vf1',
    slots: [slot, { ...passkeySlot, ...patch }],
  });
  const flipB64 = (b64: string) => {
    const b = fromBase64(b64);
    b[0]! ^= 1;
    return toBase64(b);
  };
  const otherCredential = 'EBESExQVFhcYGRobHB0eHw';
  const passkeyRefused = [
    { case: 'wrong PRF output', key: passkeyOne(), prf: run(0xe1, 32) },
    { case: 'salt changed', key: withPasskey({ salt: toBase64(fromHex(run(0xa9, 32))) }) },
    {
      case: 'credential id changed',
      key: withPasskey({ credentialId: otherCredential }),
      credentialId: otherCredential,
    },
    { case: 'slot id changed', key: withPasskey({ id: 'c0c1c2c3-c4c5-46c7-88c9-cacbcccdcecf' }) },
    { case: 'name changed', key: withPasskey({ name: 'Work' }) },
    { case: 'another vault', key: passkeyOne(), vaultId: '9d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f' },
    { case: 'commit changed', key: withPasskey({ commit: flipB64(passkeySlot.commit!) }) },
    {
      case: 'commit removed (an uncommitted passkey slot)',
      key: withPasskey({ commit: undefined }),
    },
    {
      case: 'wrap replaced (auth does not cover it)',
      key: withPasskey({ wrapped: flipB64(passkeySlot.wrapped) }),
    },
    { case: 'auth changed', key: withPasskey({ auth: flipB64(passkeySlot.auth!) }) },
    {
      case: 'six passkey slots',
      key: passkeyOne(
        ...[1, 2, 3, 4, 5].map((n) => ({
          ...passkeySlot,
          id: `c0c1c2c3-c4c5-46c7-88c9-cacbcccdce0${n}`,
          credentialId: `${otherCredential.slice(0, -1)}${'ABCDE'[n - 1]}`,
        })),
      ),
    },
    {
      case: 'two passkey slots of one credential',
      key: passkeyOne({ ...passkeySlot, id: 'c0c1c2c3-c4c5-46c7-88c9-cacbcccdcecf' }),
    },
  ].map((c) => ({
    vaultId: v.vaultId,
    credentialId: k.credentialId,
    prf: k.prf,
    ...c,
    error: 'INVALID_PASSWORD',
  }));

  // The manifest: version 1 and the version 2 that follows it, pinning the password and recovery
  // slots, the "hello" file (with the metadata record and look-up above) and the secret item.
  const file2 = files[1]!;
  const fileEntry = {
    id: file2.fileId,
    wrapped_key: file2.wrappedKey,
    enc_meta: encMeta,
    name_lookup: lookupHmac,
    checksum: file2.checksum,
    ciphertext_size: file2.ciphertextSize,
  };
  const itemEntry = { id: item.itemId, revision: item.revision, data: itemData };
  const fps = [await slotFingerprint(slot), await slotFingerprint(recoverySlot)];
  const digests = {
    file: await fileEntryDigest(fileEntry),
    item: await itemEntryDigest(itemEntry),
  };
  const manifests: { unsigned: UnsignedManifest; body: string; mac: string; hash: string }[] = [];
  for (const version of [1, 2]) {
    const unsigned: UnsignedManifest = {
      format: 'vf1-manifest',
      version,
      prev: manifests.at(-1)?.hash ?? '',
      vault: { ...v.manifestVault, name: version === 1 ? 'Personal' : 'Personal 2' },
      slots: [...fps].sort(),
      files: [[fileEntry.id, digests.file]],
      secrets: version === 1 ? [] : [[itemEntry.id, itemEntry.revision, digests.item]],
    };
    const signed = await client.signManifest(session, unsigned);
    const { ok, hash } = await client.verifyManifest(session, signed);
    if (!ok) throw new Error('vectors: the manifest does not verify');
    manifests.push({
      unsigned,
      body: toHex(manifestBody(vaultId, unsigned)),
      mac: signed.mac,
      hash,
    });
  }
  const latest: Manifest = { ...manifests[1]!.unsigned, mac: manifests[1]!.mac };
  const flipped = (b64: string) => {
    const b = fromBase64(b64);
    b[0]! ^= 1;
    return toBase64(b);
  };
  const one = (...slots: KeySlot[]): VaultKey => ({ format: 'vf1', slots });
  const multi = files[2]!;
  const flipHex = (h: string) => (h[0] === '0' ? '1' : '0') + h.slice(1);

  // planRange at its edges, and the ranges it refuses (docs/vault-format.md, "Ranges").
  const sized = files.map((f) => ({ fileId: f.fileId, ciphertextSize: f.ciphertextSize }));
  const rangeEdges = v.rangeEdges.map(({ file, ...r }) => {
    const f = sized[file]!;
    return {
      ...r,
      fileId: f.fileId,
      ciphertextSize: f.ciphertextSize,
      plan: planRange(f.ciphertextSize, r.start, r.end),
    };
  });
  const rangeRefused = v.rangeRefused.map(({ file, ...r }) => {
    const ciphertextSize =
      'ciphertextSize' in r ? r.ciphertextSize : sized[file ?? 0]!.ciphertextSize;
    try {
      planRange(ciphertextSize, r.start, r.end);
    } catch {
      return {
        case: r.case,
        ciphertextSize,
        start: r.start,
        end: r.end,
        error: 'INVALID_INPUT',
      };
    }
    throw new Error(`vectors: planRange accepted "${r.case}"`);
  });

  return {
    format: 'vf1',
    inputs: {
      vaultId: v.vaultId,
      password: v.password,
      passwordNfcUtf8: toHex(utf8(v.password.normalize('NFC'))),
      kdf: v.kdf,
      vmk: v.vmk,
      salt: v.salt,
      slotNonce: v.slotNonce,
    },
    pwKey: toHex(pwKey),
    kek: await sub(toHex(pwKey), vaultSalt, LABELS.kek),
    subkeys: {
      wrap: await sub(v.vmk, vaultSalt, LABELS.wrap),
      meta: await sub(v.vmk, vaultSalt, LABELS.meta),
      item: await sub(v.vmk, vaultSalt, LABELS.item),
      lookup: await sub(v.vmk, vaultSalt, LABELS.lookup),
      manifest: await sub(v.vmk, vaultSalt, LABELS.manifest),
    },
    slot,
    slotFingerprint: fps[0],
    pbkdf2Slot: {
      inputs: p,
      pwKey: toHex(pbkdf2Key),
      kek: await sub(toHex(pbkdf2Key), vaultSalt, LABELS.kek),
      slot: pbkdf2Slot,
      fingerprint: await slotFingerprint(pbkdf2Slot),
    },
    recoverySlot: {
      inputs: r,
      recoveryKey,
      kek: await sub(r.recoveryKeyBytes, vaultSalt, LABELS.kek),
      slot: recoverySlot,
      fingerprint: fps[1],
    },
    legacySlot: { inputs: l, slot: legacy, fingerprint: await slotFingerprint(legacy) },
    passkeySlot: {
      inputs: k,
      kek: passkeyKek,
      slot: passkeySlot,
      fingerprint: await slotFingerprint(passkeySlot),
    },
    files,
    meta: { ...meta, encMeta },
    item: { ...item, data: itemData },
    lookup: { ...lookup, hmac: lookupHmac },
    range: {
      fileId: multi.fileId,
      ciphertextSize: multi.ciphertextSize,
      ...v.range,
      plan: planRange(multi.ciphertextSize, v.range.start, v.range.end),
    },
    rangeEdges,
    manifest: {
      entries: {
        file: { ...fileEntry, digest: digests.file },
        item: { ...itemEntry, digest: digests.item },
      },
      versions: manifests.map((m) => ({
        manifest: { ...m.unsigned, mac: m.mac },
        body: m.body,
        hash: m.hash,
      })),
    },
    /** Inputs a conforming implementation must refuse. */
    refused: {
      unlock: [
        {
          case: 'commit changed',
          key: one({ ...slot, commit: flipped(slot.commit!) }),
          allowLegacy: true,
        },
        { case: 'commit removed', key: one({ ...slot, commit: undefined }), allowLegacy: true },
        { case: 'legacy slot when legacy is not allowed', key: one(legacy), allowLegacy: false },
        { case: 'two password slots', key: one(slot, pbkdf2Slot), allowLegacy: true },
        {
          case: 'two recovery slots',
          key: one(slot, recoverySlot, { ...recoverySlot, id: 'r2' }),
          allowLegacy: true,
        },
      ].map((c) => ({ ...c, password: v.password, error: 'INVALID_PASSWORD' })),
      /** unlockWithPasskey(vaultId, key, credentialId, prf): all INVALID_PASSWORD. */
      passkeyUnlock: passkeyRefused,
      range: rangeRefused,
      manifest: [
        { case: 'MAC changed', manifest: { ...latest, mac: flipHex(latest.mac) } },
        { case: 'name changed', manifest: { ...latest, vault: { ...latest.vault, name: 'Work' } } },
        { case: 'slots unsorted', manifest: { ...latest, slots: [...latest.slots].reverse() } },
        { case: 'version 1 with a prev', manifest: { ...latest, version: 1 } },
        { case: 'rolled back version', manifest: { ...latest, version: 1, prev: '' } },
      ],
    },
  };
}

export type Vf1Vectors = Awaited<ReturnType<typeof buildVectors>>;
