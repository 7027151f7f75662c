// Key slots: create, unlock, change password, recovery, and every way a slot can be abused.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { asVaultId, type VaultId } from './ids.ts';
import {
  ARGON2ID_DEFAULT,
  kdfParamsAllowed,
  PBKDF2_DEFAULT,
  resolvePasswordKdf,
  type KdfParams,
} from './kdf.ts';
import { MAX_PASSWORD_DERIVATIONS, slotsToTry, type KeySlot, type VaultKey } from './slot.ts';
import { FAST_KDF, localClient, uuid } from './testkit.ts';

const { client } = localClient();
const vaultId = asVaultId('8d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f');
let key: VaultKey;

const withSlot = (k: VaultKey, patch: Partial<VaultKey['slots'][number]>): VaultKey => ({
  format: 'vf1',
  slots: k.slots.map((s) => ({ ...s, ...patch })),
});

async function expectInvalidPassword(p: Promise<unknown>) {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CryptoError);
  expect((err as CryptoError).code).toBe('INVALID_PASSWORD');
  expect((err as CryptoError).message).toBe('Invalid password');
}

beforeAll(async () => {
  ({ key } = await client.createVault(vaultId, 'correct horse', FAST_KDF));
});

describe('createVault and unlockVault', () => {
  it('records the KDF, a 16-byte salt and a 60-byte slot', () => {
    expect(key.format).toBe('vf1');
    const [slot] = key.slots;
    expect(slot?.kind).toBe('password');
    expect(slot?.kdf).toEqual(FAST_KDF);
    expect(fromBase64(slot?.salt ?? '').length).toBe(16);
    expect(fromBase64(slot?.wrapped ?? '').length).toBe(60);
  });

  it('unlocks with the password and not with another', async () => {
    await expect(client.unlockVault(vaultId, key, 'correct horse')).resolves.toMatch(
      /^[0-9a-f]{32}$/,
    );
    await expectInvalidPassword(client.unlockVault(vaultId, key, 'correct horse '));
  });

  it('defaults to Argon2id m=64 MiB, t=3, p=1 and offers PBKDF2 with 600,000 iterations', async () => {
    expect(resolvePasswordKdf()).toEqual({ alg: 'argon2id', m: 65536, t: 3, p: 1 });
    const { key: k } = await client.createVault(uuid(), 'pw', 'pbkdf2-sha256');
    expect(k.slots[0]?.kdf).toEqual({ alg: 'pbkdf2-sha256', iterations: 600_000 });
  });

  it('normalises passwords to NFC', async () => {
    const id = uuid<VaultId>();
    const { key: k } = await client.createVault(id, 'caf\u00e9', FAST_KDF);
    await expect(client.unlockVault(id, k, 'cafe\u0301')).resolves.toBeTruthy();
  });

  it('refuses a slot from another vault', async () => {
    await expectInvalidPassword(client.unlockVault(uuid(), key, 'correct horse'));
  });

  it('refuses any single bit flipped in the slot or salt', async () => {
    const wrapped = fromBase64(key.slots[0]!.wrapped);
    const salt = fromBase64(key.slots[0]!.salt);
    await fc.assert(
      fc.asyncProperty(fc.nat(60 * 8 + 16 * 8 - 1), async (bit) => {
        const w = wrapped.slice();
        const s = salt.slice();
        if (bit < 480) w[bit >> 3]! ^= 1 << (bit & 7);
        else s[(bit - 480) >> 3]! ^= 1 << (bit & 7);
        const k = withSlot(key, { wrapped: toBase64(w), salt: toBase64(s) });
        await expectInvalidPassword(client.unlockVault(vaultId, k, 'correct horse'));
      }),
      { numRuns: 8 },
    );
  });

  it('refuses changed slot ids, kinds and malformed records with the same error', async () => {
    await expectInvalidPassword(
      client.unlockVault(vaultId, withSlot(key, { id: 'other' }), 'correct horse'),
    );
    await expectInvalidPassword(
      client.unlockVault(vaultId, withSlot(key, { kind: 'recovery' }), 'correct horse'),
    );
    await expectInvalidPassword(
      client.unlockVault(vaultId, withSlot(key, { wrapped: '!!' }), 'correct horse'),
    );
    await expectInvalidPassword(
      client.unlockVault(vaultId, { format: 'vf1', slots: [] }, 'correct horse'),
    );
    await expectInvalidPassword(
      client.unlockVault(vaultId, null as unknown as VaultKey, 'correct horse'),
    );
    await expectInvalidPassword(client.unlockVault('not-a-uuid' as VaultId, key, 'correct horse'));
  });
});

describe('KDF floors and caps', () => {
  const tooWeakOrTooStrong: KdfParams[] = [
    { alg: 'argon2id', m: 19 * 1024 - 1, t: 2, p: 1 },
    { alg: 'argon2id', m: 19 * 1024, t: 1, p: 1 },
    { alg: 'argon2id', m: 256 * 1024 + 1, t: 3, p: 1 },
    { alg: 'argon2id', m: 65536, t: 5, p: 1 },
    { alg: 'argon2id', m: 65536, t: 3, p: 5 },
    { alg: 'argon2id', m: 1024 * 1024, t: 10, p: 1 }, // the old caps
    { alg: 'argon2id', m: 65536, t: 3, p: 0 },
    { alg: 'pbkdf2-sha256', iterations: 599_999 },
    { alg: 'pbkdf2-sha256', iterations: 2_000_001 },
    { alg: 'argon2id', m: 65536.5, t: 3, p: 1 },
  ];

  it('accepts exactly the range between floor and cap', () => {
    for (const k of tooWeakOrTooStrong) expect(kdfParamsAllowed(k)).toBe(false);
    expect(kdfParamsAllowed(FAST_KDF)).toBe(true);
    expect(kdfParamsAllowed({ alg: 'argon2id', m: 256 * 1024, t: 4, p: 4 })).toBe(true);
    expect(kdfParamsAllowed({ alg: 'pbkdf2-sha256', iterations: 2_000_000 })).toBe(true);
    expect(kdfParamsAllowed(ARGON2ID_DEFAULT)).toBe(true);
    expect(kdfParamsAllowed(PBKDF2_DEFAULT)).toBe(true);
    expect(kdfParamsAllowed({ alg: 'scrypt' })).toBe(false);
  });

  it('refuses to create a vault with parameters outside the range', async () => {
    for (const k of tooWeakOrTooStrong) {
      await expect(client.createVault(uuid(), 'pw', k)).rejects.toMatchObject({
        code: 'KDF_PARAMS',
      });
    }
  });

  it('fails unlock when a server lowers or raises the recorded parameters', async () => {
    for (const kdf of [
      ...tooWeakOrTooStrong,
      { alg: 'argon2id', m: 19 * 1024 + 1, t: 2, p: 1 } as const,
    ]) {
      await expectInvalidPassword(
        client.unlockVault(vaultId, withSlot(key, { kdf }), 'correct horse'),
      );
    }
  });
});

describe('changePassword and recovery', () => {
  it('re-wraps the same VMK under a new password (same slot id, new salt)', async () => {
    const changed = await client.changePassword(
      vaultId,
      key,
      'correct horse',
      'battery staple',
      FAST_KDF,
    );
    expect(changed.slots).toHaveLength(1);
    expect(changed.slots[0]?.id).toBe(key.slots[0]?.id);
    expect(changed.slots[0]?.salt).not.toBe(key.slots[0]?.salt);
    await expectInvalidPassword(client.unlockVault(vaultId, changed, 'correct horse'));
    const before = await client.unlockVault(vaultId, key, 'correct horse');
    const after = await client.unlockVault(vaultId, changed, 'battery staple');
    // Same VMK: the same look-up key on both sides.
    expect(await client.lookupName(after, null, 'a.txt')).toBe(
      await client.lookupName(before, null, 'a.txt'),
    );
    await expectInvalidPassword(client.changePassword(vaultId, key, 'wrong', 'x', FAST_KDF));
  });

  it('adds a recovery slot that unlocks and resets the password', async () => {
    const { key: withRecovery, recoveryKey } = await client.addRecoverySlot(
      vaultId,
      key,
      'correct horse',
    );
    expect(recoveryKey).toMatch(/^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/);
    expect(withRecovery.slots.map((s) => s.kind).sort()).toEqual(['password', 'recovery']);
    const viaRecovery = await client.unlockWithRecoveryKey(
      vaultId,
      withRecovery,
      recoveryKey.toLowerCase(),
    );
    const reset = await client.resetPassword(
      vaultId,
      withRecovery,
      recoveryKey,
      'new one',
      FAST_KDF,
    );
    const viaNew = await client.unlockVault(vaultId, reset, 'new one');
    expect(await client.lookupName(viaNew, null, 'x')).toBe(
      await client.lookupName(viaRecovery, null, 'x'),
    );
    await expectInvalidPassword(client.unlockVault(vaultId, reset, 'correct horse'));
    await expectInvalidPassword(
      client.unlockWithRecoveryKey(vaultId, withRecovery, 'AAAA-' + recoveryKey.slice(5)),
    );
    await expectInvalidPassword(
      client.unlockWithRecoveryKey(vaultId, withRecovery, 'correct horse'),
    );
  });

  it('forgets the keys on lock', async () => {
    const session = await client.unlockVault(vaultId, key, 'correct horse');
    await client.lockVault(vaultId);
    await expect(client.lookupName(session, null, 'x')).rejects.toMatchObject({ code: 'LOCKED' });
  });
});

describe('slots an unlock tries [Note: KDF caps]', () => {
  const slot = (n: number, kdf: KeySlot['kdf'], kind: KeySlot['kind'] = 'password') => ({
    ...key.slots[0]!,
    id: `slot-${n}`,
    kind,
    kdf,
  });
  const argon = (m: number): KeySlot['kdf'] => ({ alg: 'argon2id', m, t: 3, p: 1 });

  it('tries one slot per KDF parameter set, and at most MAX_PASSWORD_DERIVATIONS', () => {
    const same = Array.from({ length: 8 }, (_, i) => slot(i, argon(65536)));
    expect(slotsToTry(same).map((s) => s.id)).toEqual(['slot-0']);
    const distinct = Array.from({ length: 8 }, (_, i) => slot(i, argon(65536 + i)));
    expect(slotsToTry(distinct)).toHaveLength(MAX_PASSWORD_DERIVATIONS);
    expect(MAX_PASSWORD_DERIVATIONS).toBe(2);
    // Recovery slots derive nothing: all of them stay.
    const recovery = Array.from({ length: 3 }, (_, i) => slot(i, { alg: 'none' }, 'recovery'));
    expect(slotsToTry(recovery)).toHaveLength(3);
  });

  it('opens an honest vault whose slot comes first, whatever junk follows', async () => {
    const junk = Array.from({ length: 7 }, (_, i) => ({ ...key.slots[0]!, id: `junk-${i}` }));
    const listed: VaultKey = { format: 'vf1', slots: [...key.slots, ...junk] };
    await expect(client.unlockVault(vaultId, listed, 'correct horse')).resolves.toBeTruthy();
  });

  it('does not derive again for a second slot with the same parameters', async () => {
    // The real slot behind a junk one with the same parameters is not tried: one derivation.
    // (The slot id is in the slot's AAD: under another id the same bytes do not open.)
    const junk = { ...key.slots[0]!, id: 'junk' };
    await expectInvalidPassword(
      client.unlockVault(vaultId, { format: 'vf1', slots: [junk, ...key.slots] }, 'correct horse'),
    );
  });
});
