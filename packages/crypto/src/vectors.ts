// Builds the vf1 test vectors (packages/crypto/vectors/vf1.json) from fixed keys and nonces by
// running the real implementation with scripted randomness. vectors.test.ts checks the committed
// JSON against this and, independently, against raw HKDF/AES-GCM/HMAC steps; another
// implementation can check itself against the JSON alone (docs/vault-format.md, "Test vectors").
import { fromHex, toHex, utf8, uuidBytes } from './bytes.ts';
import { CHUNK_BYTES } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import { asFileId, asFolderId, asItemId, asVaultId } from './ids.ts';
import { derivePasswordKey, type KdfParams } from './kdf.ts';
import { LABELS } from './keys.ts';
import { hkdfBytes } from './primitives.ts';
import type { FileMeta, SecretItem } from './records.ts';
import { inProcessTransport } from './rpc.ts';
import { createCryptoService } from './service.ts';
import type { KeySlot } from './slot.ts';
import { readAll, scriptedRandom, streamOf } from './testkit.ts';

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
  ],
  /** One K_wrap nonce per file: a nonce is never reused under one key, even in vectors. */
  wrapNonces: [run(0x60, 12), run(0x61, 12), run(0x62, 12)],
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
    const digest = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', ct)));
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
      checksum: digest,
    });
  }
  const { meta, item, lookup } = v;
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
    },
    slot: key.slots[0] as KeySlot,
    files,
    meta: {
      ...meta,
      encMeta: await client.encryptMeta(
        session,
        asFileId(meta.fileId),
        asFolderId(meta.parentId),
        meta.value,
      ),
    },
    item: {
      ...item,
      data: await client.encryptItem(session, asItemId(item.itemId), item.revision, item.value),
    },
    lookup: {
      ...lookup,
      hmac: await client.lookupName(session, asFolderId(lookup.parentId), lookup.name),
    },
  };
}

export type Vf1Vectors = Awaited<ReturnType<typeof buildVectors>>;
