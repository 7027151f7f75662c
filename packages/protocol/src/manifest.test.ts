import { describe, expect, it } from 'vitest';
import {
  manifestSchema,
  putManifestRequestSchema,
  rotateVaultRequestSchema,
  type Manifest,
} from './manifest.ts';
import {
  ONE_SLOT_PER_KIND_MESSAGE,
  vaultKeyRecordSchema,
  vaultKeySchema,
  vaultSchema,
  type KeySlot,
} from './vaults.ts';

const h = (c: string, n: number) => c.repeat(n);
const fileId = '0b5d2a3e-6f1c-4d8e-9a7b-1c2d3e4f5a6b';
const itemId = '7f3e2d1c-0b9a-4876-8543-210fedcba987';

const manifest = (over: Partial<Manifest> = {}): Manifest => ({
  format: 'vf1-manifest',
  version: 2,
  prev: h('a', 64),
  vault: {
    name: 'Personal',
    description: '',
    vault_type: 'secrets',
    provider_type: 'server',
    storage_folder: '',
  },
  slots: [h('1', 64), h('2', 64)],
  files: [[fileId, h('c', 32)]],
  secrets: [[itemId, 3, h('d', 32)]],
  mac: h('e', 64),
  ...over,
});

const slot = (kind: KeySlot['kind'], over: Partial<KeySlot> = {}): KeySlot => ({
  id: crypto.randomUUID(),
  kind,
  kdf: kind === 'password' ? { alg: 'argon2id', m: 65536, t: 3, p: 1 } : { alg: 'none' },
  salt: Buffer.alloc(16, 1).toString('base64'),
  wrapped: Buffer.alloc(60, 2).toString('base64'),
  ...over,
});

describe('manifestSchema', () => {
  it('accepts the ADR shape', () => {
    expect(manifestSchema.parse(manifest())).toEqual(manifest());
    expect(manifestSchema.safeParse(manifest({ version: 1, prev: '' })).success).toBe(true);
    // ADR 0008: the segments of a vault whose items live in its provider, in their order.
    const segments: [string, string][] = [
      [itemId, h('f', 64)],
      [fileId, h('e', 64)],
    ];
    expect(manifestSchema.parse(manifest({ segments })).segments).toEqual(segments);
  });

  it.each<[string, Record<string, unknown>]>([
    ['upper-case hex in the mac', { mac: h('E', 64) }],
    ['a short digest', { files: [[fileId, h('c', 31)]] }],
    ['a slot that is not 64 hex', { slots: [h('1', 63)] }],
    ['unsorted slots', { slots: [h('2', 64), h('1', 64)] }],
    ['a repeated slot', { slots: [h('1', 64), h('1', 64)] }],
    ['five slots', { slots: [h('1', 64), h('2', 64), h('3', 64), h('4', 64), h('5', 64)] }],
    ['version 0', { version: 0, prev: '' }],
    ['an empty prev after version 1', { prev: '' }],
    ['a prev at version 1', { version: 1 }],
    ['a revision 0 secret', { secrets: [[itemId, 0, h('d', 32)]] }],
    ['an upper-case file id', { files: [[fileId.toUpperCase(), h('c', 32)]] }],
    ['another format', { format: 'vf2-manifest' }],
    ['an unknown field', { extra: 1 }],
    [
      'a segment pinned twice',
      {
        segments: [
          [fileId, h('f', 64)],
          [fileId, h('e', 64)],
        ],
      },
    ],
    ['a segment digest that is not 64 hex', { segments: [[fileId, h('f', 32)]] }],
  ])('refuses %s', (_, over) => {
    expect(manifestSchema.safeParse({ ...manifest(), ...over }).success).toBe(false);
  });

  it('refuses more than 100,000 file entries', () => {
    const files = Array.from({ length: 100_001 }, (): [string, string] => [fileId, h('c', 32)]);
    expect(manifestSchema.safeParse(manifest({ files })).success).toBe(false);
  });
});

describe('putManifestRequestSchema', () => {
  it('wants version = expected_version + 1', () => {
    expect(
      putManifestRequestSchema.safeParse({ expected_version: 1, manifest: manifest() }).success,
    ).toBe(true);
    const wrong = putManifestRequestSchema.safeParse({ expected_version: 2, manifest: manifest() });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.path).toEqual(['manifest', 'version']);
  });
});

describe('rotateVaultRequestSchema', () => {
  const rotation = {
    expected_key_revision: 4,
    expected_manifest_version: 1,
    key: { format: 'vf1', slots: [slot('password')] },
    manifest: manifest(),
    files: [
      {
        id: fileId,
        wrapped_key: Buffer.alloc(60).toString('base64'),
        enc_meta: Buffer.alloc(100).toString('base64'),
        name_lookup: h('f', 64),
      },
    ],
    secrets: [{ id: itemId, revision: 3, data: Buffer.alloc(512).toString('base64') }],
  };
  it('accepts a rotation and refuses a manifest version that does not follow', () => {
    expect(rotateVaultRequestSchema.safeParse(rotation).success).toBe(true);
    expect(
      rotateVaultRequestSchema.safeParse({ ...rotation, expected_manifest_version: 0 }).success,
    ).toBe(false);
  });
});

describe('key slots', () => {
  const commit = Buffer.alloc(32, 9).toString('base64');
  it('take an optional 32-byte commit', () => {
    expect(vaultKeySchema.safeParse({ format: 'vf1', slots: [slot('password')] }).success).toBe(
      true,
    );
    expect(
      vaultKeySchema.safeParse({ format: 'vf1', slots: [slot('password', { commit })] }).success,
    ).toBe(true);
    for (const bad of [
      Buffer.alloc(31, 9).toString('base64'),
      Buffer.alloc(33, 9).toString('base64'),
      commit.replace(/=$/, ''),
      `${commit.slice(0, 42)}B=`, // non-zero padding bits
    ]) {
      expect(
        vaultKeySchema.safeParse({ format: 'vf1', slots: [slot('password', { commit: bad })] })
          .success,
        bad,
      ).toBe(false);
    }
  });

  it('refuse a second password or recovery slot', () => {
    expect(
      vaultKeySchema.safeParse({ format: 'vf1', slots: [slot('password'), slot('recovery')] })
        .success,
    ).toBe(true);
    for (const slots of [
      [slot('password'), slot('password')],
      [slot('password'), slot('recovery'), slot('recovery')],
    ]) {
      const r = vaultKeySchema.safeParse({ format: 'vf1', slots });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(ONE_SLOT_PER_KIND_MESSAGE);
    }
  });

  it('still parse in a vault record from the server, so that unlock can name the extra slot', () => {
    const key = { format: 'vf1', slots: [slot('password'), slot('password')] };
    expect(vaultKeyRecordSchema.safeParse(key).success).toBe(true);
    const vault = {
      id: crypto.randomUUID(),
      name: 'Personal',
      description: null,
      vault_type: 'secrets',
      provider_type: 'server',
      storage_folder: null,
      is_hidden: false,
      last_accessed: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      file_count: 0,
      secrets_count: 0,
      total_size: 0,
      key,
      key_revision: 0,
    };
    expect(vaultSchema.parse(vault).key.slots).toHaveLength(2);
  });
});
