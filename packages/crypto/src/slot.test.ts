// Key slots: create, unlock, change password, recovery, and every way a slot can be abused.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fields, fromBase64, toBase64, toHex, utf8 } from './bytes.ts';
import { CryptoError } from './errors.ts';
import { asVaultId, type VaultId } from './ids.ts';
import {
  ARGON2ID_DEFAULT,
  kdfParamsAllowed,
  kdfParamsBytes,
  PBKDF2_DEFAULT,
  resolvePasswordKdf,
  type KdfParams,
} from './kdf.ts';
import { hasLegacySlots, slotFingerprint, type KeySlot, type VaultKey } from './slot.ts';
import { commitFor, FAST_KDF, legacySlot, localClient, multiKeySlot, uuid } from './testkit.ts';

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

// Each test runs up to nine Argon2id derivations (19 MiB): more than 5 s on a loaded machine.
describe('committed slots (ADR 0007)', { timeout: 30_000 }, () => {
  const vmk = () => Uint8Array.from({ length: 32 }, (_, i) => i);

  it('writes a 32-byte commit on every slot it seals, and UUID slot ids', async () => {
    const { key: withRecovery } = await client.addRecoverySlot(vaultId, key, 'correct horse');
    const changed = await client.changePassword(
      vaultId,
      withRecovery,
      'correct horse',
      'x',
      FAST_KDF,
    );
    for (const k of [key, withRecovery, changed]) {
      for (const slot of k.slots) {
        expect(fromBase64(slot.commit ?? '').length).toBe(32);
        expect(slot.id).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });

  it('refuses a slot whose commit is changed, removed or moved to another slot', async () => {
    const commit = fromBase64(key.slots[0]!.commit!);
    await fc.assert(
      fc.asyncProperty(fc.nat(255), async (bit) => {
        const c = commit.slice();
        c[bit >> 3]! ^= 1 << (bit & 7);
        const k = withSlot(key, { commit: toBase64(c) });
        await expectInvalidPassword(client.unlockVault(vaultId, k, 'correct horse'));
      }),
      { numRuns: 4 },
    );
    // Without its commit the slot is read as legacy (UTF-8 id in the AAD): it does not open.
    const stripped: KeySlot = { ...key.slots[0]! };
    delete stripped.commit;
    await expectInvalidPassword(
      client.unlockVault(vaultId, { format: 'vf1', slots: [stripped] }, 'correct horse'),
    );
    const other = await client.createVault(vaultId, 'correct horse', FAST_KDF);
    const moved = withSlot(key, { commit: other.key.slots[0]!.commit! });
    await expectInvalidPassword(client.unlockVault(vaultId, moved, 'correct horse'));
    await expect(
      client.unlockVault(vaultId, key, 'correct horse', { allowLegacy: false }),
    ).resolves.toBeTruthy();
  });

  it('opens a legacy slot only when the caller allows legacy slots', async () => {
    const id = uuid<VaultId>();
    const legacy: VaultKey = {
      format: 'vf1',
      slots: [await legacySlot(id, 'old one', FAST_KDF, vmk(), 'legacy-id-1')],
    };
    expect(hasLegacySlots(legacy)).toBe(true);
    await expect(client.unlockVault(id, legacy, 'old one')).resolves.toBeTruthy();
    await expect(
      client.unlockVault(id, legacy, 'old one', { allowLegacy: true }),
    ).resolves.toBeTruthy();
    await expectInvalidPassword(client.unlockVault(id, legacy, 'old one', { allowLegacy: false }));
    await expectInvalidPassword(client.unlockVault(id, legacy, 'wrong', { allowLegacy: true }));
    await expectInvalidPassword(
      client.changePassword(id, legacy, 'old one', 'old one', FAST_KDF, { allowLegacy: false }),
    );
  });

  it('upgrades a legacy password slot with a same-password change (same VMK, committed)', async () => {
    const id = uuid<VaultId>();
    const legacyKey: VaultKey = {
      format: 'vf1',
      slots: [await legacySlot(id, 'pw', FAST_KDF, vmk(), 'not-a-uuid')],
    };
    const upgraded = await client.changePassword(id, legacyKey, 'pw', 'pw', FAST_KDF);
    expect(hasLegacySlots(upgraded)).toBe(false);
    expect(upgraded.slots[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    const a = await client.unlockVault(id, legacyKey, 'pw');
    const b = await client.unlockVault(id, upgraded, 'pw', { allowLegacy: false });
    expect(await client.lookupName(b, null, 'n')).toBe(await client.lookupName(a, null, 'n'));
  });

  it('refuses a key with two password slots or two recovery slots, even with the right password', async () => {
    const second = { ...key.slots[0]!, id: crypto.randomUUID() };
    await expectInvalidPassword(
      client.unlockVault(
        vaultId,
        { format: 'vf1', slots: [...key.slots, second] },
        'correct horse',
      ),
    );
    await expectInvalidPassword(
      client.unlockVault(
        vaultId,
        { format: 'vf1', slots: [second, ...key.slots] },
        'correct horse',
      ),
    );
    const { key: r, recoveryKey } = await client.addRecoverySlot(vaultId, key, 'correct horse');
    const rec = r.slots.find((s) => s.kind === 'recovery')!;
    const twoRecovery: VaultKey = { format: 'vf1', slots: [...r.slots, { ...rec, id: 'copy' }] };
    await expectInvalidPassword(client.unlockWithRecoveryKey(vaultId, twoRecovery, recoveryKey));
    await expectInvalidPassword(client.unlockVault(vaultId, twoRecovery, 'correct horse'));
    await expect(client.unlockWithRecoveryKey(vaultId, r, recoveryKey)).resolves.toBeTruthy();
  });

  it('a multi-key AES-GCM slot opens under three passwords on the legacy path', async () => {
    const id = uuid<VaultId>();
    const passwords = ['alpha', 'bravo', 'charlie'] as const;
    const slot = await multiKeySlot(id, passwords, FAST_KDF);
    const forged: VaultKey = { format: 'vf1', slots: [slot] };
    const sessions = [];
    for (const pw of passwords) sessions.push(await client.unlockVault(id, forged, pw));
    // Three different "VMKs": three different look-up keys.
    const looks = await Promise.all(sessions.map((s) => client.lookupName(s, null, 'x')));
    expect(new Set(looks).size).toBe(3);
    await expectInvalidPassword(client.unlockVault(id, forged, 'delta'));
    await expectInvalidPassword(client.unlockVault(id, forged, 'alpha', { allowLegacy: false }));
  });

  it('a multi-key slot with any commit opens under one of the three passwords at most', async () => {
    const id = uuid<VaultId>();
    const passwords = ['alpha', 'bravo', 'charlie'] as const;
    const slot = await multiKeySlot(id, passwords, FAST_KDF, { committed: true });
    const commits = [
      ...(await Promise.all(passwords.map((pw) => commitFor(id, slot, pw)))),
      toBase64(new Uint8Array(32)),
    ];
    for (const [c, commit] of commits.entries()) {
      const k: VaultKey = { format: 'vf1', slots: [{ ...slot, commit }] };
      const opened: string[] = [];
      for (const pw of passwords) {
        const ok = await client.unlockVault(id, k, pw).then(
          () => true,
          () => false,
        );
        if (ok) opened.push(pw);
      }
      // The commit made for password c opens under c (the GCM part is valid for it) and no other.
      expect(opened).toEqual(c < 3 ? [passwords[c]] : []);
    }
  });
});

describe('slotFingerprint', () => {
  it('is SHA-256 over the documented fields, and changes with every field', async () => {
    const slot = key.slots[0]!;
    const fp = await slotFingerprint(slot);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    const data = fields(
      'vf1/slot-fp',
      utf8(slot.id),
      utf8(slot.kind),
      kdfParamsBytes(slot.kdf),
      fromBase64(slot.salt),
      fromBase64(slot.wrapped),
      fromBase64(slot.commit!),
    );
    expect(fp).toBe(toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data))));
    const changes: Partial<KeySlot>[] = [
      { id: crypto.randomUUID() },
      { kind: 'recovery' },
      { kdf: { ...FAST_KDF, t: 3 } as KdfParams },
      { salt: toBase64(new Uint8Array(16)) },
      { wrapped: toBase64(new Uint8Array(60)) },
      { commit: toBase64(new Uint8Array(32)) },
      { commit: undefined },
    ];
    for (const change of changes) {
      expect(await slotFingerprint({ ...slot, ...change })).not.toBe(fp);
    }
    await expect(slotFingerprint({ ...slot, salt: '!!' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
