// The vault manifest (ADR 0007): entry digests, the canonical form and its validation, the MAC
// (sign and verify round trip; any single change refused) and the hash chain.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fields, fromBase64, toBase64, toHex, u64be, utf8, uuidBytes } from './bytes.ts';
import { asVaultId, type SessionId, type VaultId } from './ids.ts';
import {
  canonicalManifest,
  checkChain,
  fileEntryDigest,
  isManifest,
  isUnsignedManifest,
  itemEntryDigest,
  manifestBody,
  manifestHash,
  type Manifest,
  type UnsignedManifest,
} from './manifest.ts';
import type { VaultKey } from './slot.ts';
import { FAST_KDF, localClient, uuid } from './testkit.ts';

const { client } = localClient();
const vaultId = asVaultId('8d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f');
let session: SessionId;
let key: VaultKey;
let otherVault: SessionId;

const sha256 = async (data: Uint8Array<ArrayBuffer>) =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));

beforeAll(async () => {
  ({ session, key } = await client.createVault(vaultId, 'pw', FAST_KDF));
  ({ session: otherVault } = await client.createVault(uuid<VaultId>(), 'pw', FAST_KDF));
});

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => toHex(b));
const id = fc.uuid().map((u) => u.toLowerCase());
const text = fc.string({ maxLength: 12 });

/** Any valid unsigned manifest (canonical). */
const arbManifest: fc.Arbitrary<UnsignedManifest> = fc
  .record({
    version: fc.integer({ min: 1, max: 1000 }),
    prev: hex(32),
    vault: fc.record({
      name: text,
      description: text,
      vault_type: fc.constantFrom('files', 'secrets'),
      provider_type: fc.constantFrom('server', 'dropbox'),
      storage_folder: text,
    }),
    slots: fc.uniqueArray(hex(32), { maxLength: 3 }),
    files: fc.uniqueArray(fc.tuple(id, hex(16)), { maxLength: 4, selector: (f) => f[0] }),
    secrets: fc.uniqueArray(fc.tuple(id, fc.nat(1000), hex(16)), {
      maxLength: 4,
      selector: (s) => s[0],
    }),
  })
  .map((m) =>
    canonicalManifest({
      ...m,
      format: 'vf1-manifest',
      prev: m.version === 1 ? '' : m.prev,
    }),
  );

/** Changes to a manifest (each leaves it valid or not; either way the MAC must not verify). */
const mutations: ((m: Manifest) => unknown)[] = [
  (m) => ({ ...m, version: m.version + 1, prev: m.prev || 'a'.repeat(64) }),
  (m) => ({ ...m, prev: m.version === 1 ? 'a'.repeat(64) : flipHex(m.prev) }),
  (m) => ({ ...m, vault: { ...m.vault, name: m.vault.name + 'x' } }),
  (m) => ({ ...m, vault: { ...m.vault, description: m.vault.description + 'x' } }),
  (m) => ({ ...m, vault: { ...m.vault, vault_type: m.vault.vault_type + 'x' } }),
  (m) => ({ ...m, vault: { ...m.vault, provider_type: m.vault.provider_type + 'x' } }),
  (m) => ({ ...m, vault: { ...m.vault, storage_folder: m.vault.storage_folder + 'x' } }),
  (m) => ({ ...m, slots: [...m.slots, 'f'.repeat(64)] }),
  (m) => ({ ...m, slots: m.slots.length ? m.slots.slice(1) : ['0'.repeat(64)] }),
  (m) => ({ ...m, files: [...m.files, ['ffffffff-ffff-4fff-bfff-ffffffffffff', '0'.repeat(32)]] }),
  (m) => ({ ...m, files: m.files.length ? m.files.slice(1) : [[uuid(), '0'.repeat(32)]] }),
  (m) => ({
    ...m,
    files: m.files.length ? [[m.files[0]![0], flipHex(m.files[0]![1])], ...m.files.slice(1)] : 1,
  }),
  (m) => ({
    ...m,
    secrets: m.secrets.length
      ? [[m.secrets[0]![0], m.secrets[0]![1] + 1, m.secrets[0]![2]], ...m.secrets.slice(1)]
      : [['00000000-0000-4000-8000-000000000000', 1, '0'.repeat(32)]],
  }),
  (m) => ({ ...m, secrets: m.secrets.length ? m.secrets.slice(0, -1) : null }),
  (m) => ({ ...m, mac: flipHex(m.mac) }),
  (m) => ({ ...m, extra: 1 }),
  (m) => ({ ...m, format: 'vf2-manifest' }),
];

function flipHex(h: string): string {
  return (h[0] === '0' ? '1' : '0') + h.slice(1);
}

describe('entry digests', () => {
  const file = {
    id: 'fa1e0000-0000-4000-8000-000000000001',
    wrapped_key: toBase64(new Uint8Array(60).fill(1)),
    enc_meta: toBase64(new Uint8Array(92).fill(2)),
    name_lookup: 'ab'.repeat(32),
    checksum: 'cd'.repeat(32),
    ciphertext_size: 88,
  };
  const item = {
    id: '5ec12e70-0000-4000-8000-000000000001',
    revision: 7,
    data: toBase64(utf8('x')),
  };

  it('are the first 16 bytes of SHA-256 over the documented fields', async () => {
    const fileData = fields(
      'vf1/file-entry',
      uuidBytes(file.id),
      fromBase64(file.wrapped_key),
      fromBase64(file.enc_meta),
      utf8(file.name_lookup),
      utf8(file.checksum),
      u64be(file.ciphertext_size),
    );
    expect(await fileEntryDigest(file)).toBe((await sha256(fileData)).slice(0, 32));
    const itemData = fields('vf1/item-entry', uuidBytes(item.id), u64be(7), utf8('x'));
    expect(await itemEntryDigest(item)).toBe((await sha256(itemData)).slice(0, 32));
  });

  it('change with every field', async () => {
    const base = await fileEntryDigest(file);
    for (const change of [
      { id: 'fa1e0000-0000-4000-8000-000000000002' },
      { wrapped_key: toBase64(new Uint8Array(60)) },
      { enc_meta: toBase64(new Uint8Array(92)) },
      { name_lookup: 'ab'.repeat(31) + 'ac' },
      { checksum: 'cd'.repeat(31) + 'ce' },
      { ciphertext_size: 89 },
    ]) {
      expect(await fileEntryDigest({ ...file, ...change })).not.toBe(base);
    }
    const itemBase = await itemEntryDigest(item);
    expect(await itemEntryDigest({ ...item, revision: 8 })).not.toBe(itemBase);
    expect(await itemEntryDigest({ ...item, data: toBase64(utf8('y')) })).not.toBe(itemBase);
    await expect(fileEntryDigest({ ...file, wrapped_key: '!' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(itemEntryDigest({ ...item, revision: -1 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('canonical form and validation', () => {
  const f1 = '00000000-0000-4000-8000-000000000001';
  const f2 = '00000000-0000-4000-8000-000000000002';
  const valid: UnsignedManifest = {
    format: 'vf1-manifest',
    version: 2,
    prev: 'ab'.repeat(32),
    vault: {
      name: 'P',
      description: '',
      vault_type: 'secrets',
      provider_type: 'server',
      storage_folder: '',
    },
    slots: ['11'.repeat(32), '22'.repeat(32)],
    files: [
      [f1, '33'.repeat(16)],
      [f2, '44'.repeat(16)],
    ],
    secrets: [[f1, 3, '55'.repeat(16)]],
  };

  it('sorts lists, lowercases ids and writes null texts as ""', () => {
    const messy = canonicalManifest({
      ...valid,
      prev: valid.prev.toUpperCase(),
      vault: { ...valid.vault, description: null, storage_folder: null },
      slots: [...valid.slots].reverse(),
      files: [
        [f2.toUpperCase(), '44'.repeat(16)],
        [f1, '33'.repeat(16)],
      ],
    });
    expect(messy).toEqual(valid);
    expect(isUnsignedManifest(messy)).toBe(true);
  });

  it('refuses malformed manifests', () => {
    const bad: unknown[] = [
      { ...valid, version: 0, prev: '' },
      { ...valid, version: 1 }, // prev must be empty for version 1
      { ...valid, prev: '' }, // and only then
      { ...valid, version: 1.5 },
      { ...valid, prev: 'AB'.repeat(32) },
      { ...valid, slots: [...valid.slots].reverse() },
      { ...valid, slots: [valid.slots[0], valid.slots[0]] },
      { ...valid, slots: ['11'.repeat(31)] },
      { ...valid, files: [...valid.files].reverse() },
      { ...valid, files: [valid.files[0], valid.files[0]] },
      {
        ...valid,
        files: [['abcdef00-0000-4000-8000-000000000001'.toUpperCase(), '33'.repeat(16)]],
      },
      { ...valid, files: [[f1, '3'.repeat(31)]] },
      { ...valid, secrets: [[f1, -1, '55'.repeat(16)]] },
      { ...valid, secrets: [[f1, '3', '55'.repeat(16)]] },
      { ...valid, vault: { ...valid.vault, description: null } },
      { ...valid, vault: { ...valid.vault, extra: '' } },
      { ...valid, format: 'vf1' },
      { ...valid, extra: true },
      null,
      [],
    ];
    for (const m of bad) expect(isUnsignedManifest(m), JSON.stringify(m)).toBe(false);
    expect(isManifest({ ...valid, mac: '00'.repeat(32) })).toBe(true);
    expect(isManifest({ ...valid, mac: '00'.repeat(31) })).toBe(false);
    expect(isManifest(valid)).toBe(false);
    expect(() => manifestBody(vaultId, bad[5] as UnsignedManifest)).toThrow();
  });

  it('signManifest canonicalises, and refuses what cannot be made valid', async () => {
    const signed = await client.signManifest(session, {
      ...valid,
      slots: [...valid.slots].reverse(),
    });
    expect(signed.slots).toEqual(valid.slots);
    await expect(
      client.signManifest(session, { ...valid, files: [valid.files[0]!, valid.files[0]!] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(client.signManifest(session, { ...valid, version: 0 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('MAC and hash', () => {
  it('round trips: sign then verify, hash = SHA-256(body | mac)', async () => {
    await fc.assert(
      fc.asyncProperty(arbManifest, async (m) => {
        const signed = await client.signManifest(session, m);
        expect(isManifest(signed)).toBe(true);
        const { ok, hash } = await client.verifyManifest(session, signed);
        expect(ok).toBe(true);
        expect(hash).toBe(await manifestHash(vaultId, signed));
        const body = manifestBody(vaultId, signed);
        const mac = Uint8Array.from(signed.mac.match(/../g)!, (b) => parseInt(b, 16));
        const joined = new Uint8Array(body.length + 32);
        joined.set(body);
        joined.set(mac, body.length);
        expect(hash).toBe(await sha256(joined));
      }),
      { numRuns: 30 },
    );
  });

  it("refuses any single change, and another vault's key", async () => {
    await fc.assert(
      fc.asyncProperty(arbManifest, fc.nat(mutations.length - 1), async (m, which) => {
        const signed = await client.signManifest(session, m);
        const changed = mutations[which]!(signed) as Manifest;
        expect(await client.verifyManifest(session, changed)).toEqual({ ok: false, hash: '' });
      }),
      { numRuns: 60 },
    );
    const signed = await client.signManifest(session, {
      ...canonicalManifest(fc.sample(arbManifest, 1)[0]!),
    });
    expect((await client.verifyManifest(otherVault, signed)).ok).toBe(false);
    // The same vault unlocked again (same VMK) verifies it.
    const again = await client.unlockVault(vaultId, key, 'pw', { allowLegacy: false });
    expect((await client.verifyManifest(again, signed)).ok).toBe(true);
  });

  it('never throws for garbage', async () => {
    for (const junk of [null, 1, 'x', [], {}, { mac: 'zz' }]) {
      expect(await client.verifyManifest(session, junk as unknown as Manifest)).toEqual({
        ok: false,
        hash: '',
      });
    }
  });
});

// ADR 0008: the segment list of a secrets vault whose items live in its provider.
describe('segments', () => {
  const segs: [string, string][] = [
    ['aaaaaaaa-1111-4111-8111-111111111111', 'a'.repeat(64)],
    ['22222222-2222-4222-8222-222222222222', 'b'.repeat(64)],
  ];

  it('are covered by the MAC in their order; a manifest without them keeps its old body', async () => {
    const m = fc.sample(arbManifest, 1)[0]!;
    const plain = await client.signManifest(session, m);
    expect(plain).not.toHaveProperty('segments');
    const withSegs = await client.signManifest(session, { ...m, segments: segs });
    expect(withSegs.segments).toEqual(segs); // kept in order, never sorted
    expect((await client.verifyManifest(session, withSegs)).ok).toBe(true);
    // The body of a manifest without the list is the one it always had (the vectors hold it).
    const stripped: Manifest = { ...withSegs };
    delete stripped.segments;
    expect(manifestBody(vaultId, stripped)).toEqual(manifestBody(vaultId, plain));
    for (const changed of [
      { ...withSegs, segments: [...segs].reverse() },
      { ...withSegs, segments: segs.slice(1) },
      { ...withSegs, segments: [segs[0]!, [segs[1]![0], 'c'.repeat(64)]] },
      { ...withSegs, segments: [] },
      stripped,
    ])
      expect((await client.verifyManifest(session, changed as Manifest)).ok).toBe(false);
    // A present but empty list is a field of its own.
    const empty = await client.signManifest(session, { ...m, segments: [] });
    expect((await client.verifyManifest(session, empty)).ok).toBe(true);
    expect(empty.mac).not.toBe(plain.mac);
  });

  it('must be [lowercase UUID, 64 hex] pairs, each segment once', () => {
    const m = canonicalManifest(fc.sample(arbManifest, 1)[0]!);
    expect(isUnsignedManifest({ ...m, segments: segs })).toBe(true);
    for (const bad of [
      [segs[0], segs[0]],
      [['nope', 'a'.repeat(64)]],
      [[segs[0]![0].toUpperCase(), 'a'.repeat(64)]],
      [[segs[0]![0], 'a'.repeat(63)]],
      'x',
      null,
    ])
      expect(isUnsignedManifest({ ...m, segments: bad })).toBe(false);
  });
});

describe('the chain', () => {
  async function chain(n: number, m0: UnsignedManifest) {
    const out: { manifest: Manifest; hash: string }[] = [];
    let prev = '';
    for (let v = 1; v <= n; v++) {
      const manifest = await client.signManifest(session, { ...m0, version: v, prev });
      const { ok, hash } = await client.verifyManifest(session, manifest);
      expect(ok).toBe(true);
      out.push({ manifest, hash });
      prev = hash;
    }
    return out;
  }

  it('links N versions; detects older, forks and unlinked jumps', async () => {
    await fc.assert(
      fc.asyncProperty(arbManifest, fc.integer({ min: 3, max: 6 }), async (m0, n) => {
        const links = await chain(n, m0);
        expect(checkChain(null, links[0]!.manifest, links[0]!.hash)).toBe('ok');
        for (let i = 1; i < n; i++) {
          const head = { version: i, hash: links[i - 1]!.hash };
          expect(checkChain(head, links[i]!.manifest, links[i]!.hash)).toBe('ok');
          // The same version again is fine; an older one is a roll-back.
          expect(checkChain(head, links[i - 1]!.manifest, links[i - 1]!.hash)).toBe('ok');
          const now = { version: i + 1, hash: links[i]!.hash };
          expect(checkChain(now, links[i - 1]!.manifest, links[i - 1]!.hash)).toBe('older');
        }
        const first = { version: 1, hash: links[0]!.hash };
        expect(checkChain(first, links[n - 1]!.manifest, links[n - 1]!.hash)).toBe(
          'newer-unlinked',
        );
        // A fork: another version 2 (other contents) on the same version 1.
        const fork = await client.signManifest(session, {
          ...m0,
          version: 2,
          prev: links[0]!.hash,
          vault: { ...m0.vault, name: m0.vault.name + '!' },
        });
        const forkHash = (await client.verifyManifest(session, fork)).hash;
        expect(checkChain({ version: 2, hash: links[1]!.hash }, fork, forkHash)).toBe('fork');
        // A version 3 that does not follow the version 2 held.
        const stray = await client.signManifest(session, { ...m0, version: 3, prev: forkHash });
        const strayHash = (await client.verifyManifest(session, stray)).hash;
        expect(checkChain({ version: 2, hash: links[1]!.hash }, stray, strayHash)).toBe('fork');
      }),
      { numRuns: 8 },
    );
  });
});
