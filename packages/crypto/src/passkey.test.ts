// Passkey slots (issue 30): wrap and unwrap with a PRF output, the commit checked first, every
// field bound, the limits on a hostile record, and slots that survive a rotation and a password
// change without the passkey. Runs in Node and in Chromium (npm run test:browser).
import { beforeAll, describe, expect, it } from 'vitest';
import { concat, fromBase64, randomBytes, toBase64, utf8, uuidBytes } from './bytes.ts';
import { CryptoError } from './errors.ts';
import type { SessionId, VaultId } from './ids.ts';
import { credentialIdBytes, MAX_PASSKEY_SLOTS, passkeyAad, type NewPasskey } from './passkey.ts';
import { aesGcmEncrypt, ecdhGenerate, ecdhShared, hkdfBytes, importAesKey } from './primitives.ts';
import { slotFingerprint, type KeySlot, type VaultKey } from './slot.ts';
import { FAST_KDF, localClient, uuid } from './testkit.ts';

const { client } = localClient();
const vaultId = uuid<VaultId>();
const password = 'correct horse';
let key: VaultKey;
let session: SessionId;

const credentialId = (n: number) =>
  toBase64(Uint8Array.from({ length: 16 }, (_, i) => (n * 31 + i) & 0xff))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
/** A passkey as the page has it: its credential id, salt, and a PRF output standing in. */
function passkey(n: number, name = `Passkey ${n}`) {
  const salt = randomBytes(32);
  const prf = randomBytes(32);
  return { credentialId: credentialId(n), name, salt, prf };
}
/** A copy of the PRF output: the client moves (and the service wipes) the one it is given. */
const copy = (p: { prf: Uint8Array<ArrayBuffer> }) => p.prf.slice();
const forAdd = (p: ReturnType<typeof passkey>): NewPasskey => ({ ...p, prf: copy(p) });

async function refused(p: Promise<unknown>, code = 'INVALID_PASSWORD') {
  const err: unknown = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CryptoError);
  expect((err as CryptoError).code).toBe(code);
}
const passkeySlots = (k: VaultKey) => k.slots.filter((s) => s.kind === 'passkey');
const withPasskey = (k: VaultKey, patch: Partial<KeySlot>): VaultKey => ({
  format: 'vf1',
  slots: k.slots.map((s) => (s.kind === 'passkey' ? { ...s, ...patch } : s)),
});
const flip = (b64: string, at = 0) => {
  const b = fromBase64(b64);
  b[at]! ^= 1;
  return toBase64(b);
};

const one = passkey(1, 'Passkey added 27 Nov 2026');
let withOne: VaultKey;

beforeAll(async () => {
  ({ key, session } = await client.createVault(vaultId, password, FAST_KDF));
  withOne = await client.addPasskeySlot(vaultId, key, password, forAdd(one));
});

describe('passkey slots', () => {
  it('wraps the VMK for the passkey and keeps the other slots', async () => {
    expect(withOne.slots.slice(0, key.slots.length)).toEqual(key.slots);
    const [slot] = passkeySlots(withOne);
    expect(slot).toMatchObject({
      kind: 'passkey',
      kdf: { alg: 'prf-hkdf-sha256' },
      salt: toBase64(one.salt),
      credentialId: one.credentialId,
      name: 'Passkey added 27 Nov 2026',
    });
    expect(fromBase64(slot!.publicKey!).length).toBe(65);
    expect(fromBase64(slot!.sealed!).length).toBe(92);
    expect(fromBase64(slot!.commit!).length).toBe(32);
    expect(fromBase64(slot!.wrapped).length).toBe(125);
    expect(fromBase64(slot!.auth!).length).toBe(32);
    expect(fromBase64(slot!.escrow!).length).toBe(60);
    expect(await slotFingerprint(slot!)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('unlocks with the PRF output to the same VMK, and not with another output', async () => {
    const s = await client.unlockWithPasskey(vaultId, withOne, one.credentialId, copy(one));
    // Same VMK: a manifest signed under the password session verifies under the passkey's.
    const m = await client.signManifest(session, {
      format: 'vf1-manifest',
      version: 1,
      prev: '',
      vault: { name: 'V', vault_type: 'secrets', provider_type: 'server' },
      slots: [],
      files: [],
      secrets: [],
    });
    expect(await client.verifyManifest(s, m)).toMatchObject({ ok: true });
    await refused(client.unlockWithPasskey(vaultId, withOne, one.credentialId, randomBytes(32)));
    await refused(client.unlockWithPasskey(vaultId, withOne, one.credentialId, randomBytes(16)));
    // The password still opens the vault; the passkey slot is no password slot.
    await expect(client.unlockVault(vaultId, withOne, password)).resolves.toBeTruthy();
  });

  it('adds nothing with a wrong password, a malformed passkey, or one already there', async () => {
    await refused(client.addPasskeySlot(vaultId, key, 'wrong', forAdd(passkey(2))));
    const bad = (over: Partial<NewPasskey>) =>
      refused(
        client.addPasskeySlot(vaultId, withOne, password, { ...forAdd(passkey(3)), ...over }),
        'INVALID_INPUT',
      );
    await bad({ credentialId: 'not base64url!' });
    await bad({ credentialId: '' });
    await bad({ name: '' });
    await bad({ name: 'x'.repeat(65) });
    await bad({ name: ' padded ' });
    await bad({ salt: randomBytes(16) });
    await bad({ prf: randomBytes(31) });
    await refused(
      client.addPasskeySlot(vaultId, withOne, password, forAdd({ ...passkey(4), ...one })),
      'INVALID_INPUT',
    );
  });

  it('refuses a slot whose salt, credential id, name, key, vault or slot id was changed', async () => {
    const prf = () => copy(one);
    const cases: [string, VaultKey, string, VaultId][] = [
      [
        'salt',
        withPasskey(withOne, { salt: toBase64(randomBytes(32)) }),
        one.credentialId,
        vaultId,
      ],
      [
        'credential id',
        withPasskey(withOne, { credentialId: credentialId(9) }),
        credentialId(9),
        vaultId,
      ],
      ['name', withPasskey(withOne, { name: 'Renamed' }), one.credentialId, vaultId],
      ['slot id', withPasskey(withOne, { id: uuid() }), one.credentialId, vaultId],
      [
        'public key',
        withPasskey(withOne, { publicKey: flip(passkeySlots(withOne)[0]!.publicKey!, 40) }),
        one.credentialId,
        vaultId,
      ],
      [
        'sealed',
        withPasskey(withOne, { sealed: flip(passkeySlots(withOne)[0]!.sealed!, 20) }),
        one.credentialId,
        vaultId,
      ],
      [
        'wrapped',
        withPasskey(withOne, { wrapped: flip(passkeySlots(withOne)[0]!.wrapped, 90) }),
        one.credentialId,
        vaultId,
      ],
      [
        'auth',
        withPasskey(withOne, { auth: flip(passkeySlots(withOne)[0]!.auth!) }),
        one.credentialId,
        vaultId,
      ],
      [
        'commit changed',
        withPasskey(withOne, { commit: flip(passkeySlots(withOne)[0]!.commit!) }),
        one.credentialId,
        vaultId,
      ],
      ['commit removed', withPasskey(withOne, { commit: undefined }), one.credentialId, vaultId],
      ['kdf', withPasskey(withOne, { kdf: { alg: 'none' } }), one.credentialId, vaultId],
      ['another vault', withOne, one.credentialId, uuid<VaultId>()],
      ['unknown credential', withOne, credentialId(7), vaultId],
    ];
    for (const [name, k, cred, vault] of cases) {
      const err: unknown = await client.unlockWithPasskey(vault, k, cred, prf()).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as CryptoError | null)?.code, name).toBe('INVALID_PASSWORD');
    }
  });

  it('refuses a wrap the server made to the public key (no auth under A)', async () => {
    // Anyone can wrap a VMK of their choosing to Q; without A the server cannot make `auth` for
    // it, and the slot's own auth does not cover the forged wrap.
    const slot = passkeySlots(withOne)[0]!;
    const q = fromBase64(slot.publicKey!);
    const aad = passkeyAad(
      vaultId,
      slot.id,
      one.salt,
      credentialIdBytes(one.credentialId),
      q,
      slot.name!,
    );
    const e = await ecdhGenerate();
    const shared = await ecdhShared(e, q);
    const raw = await hkdfBytes(shared, uuidBytes(vaultId), utf8('vf1/passkey-wrap'), 32);
    const nonce = randomBytes(12);
    const chosenVmk = randomBytes(32);
    const forged = concat(
      e.q,
      nonce,
      await aesGcmEncrypt(await importAesKey(raw), nonce, chosenVmk, aad),
    );
    const k = withPasskey(withOne, { wrapped: toBase64(forged) });
    await refused(client.unlockWithPasskey(vaultId, k, one.credentialId, copy(one)));
    // And a rotation under keys whose K_wrap does not open the escrow cannot carry the slot.
    const { session: other } = await client.createVault(vaultId, 'other', FAST_KDF);
    await refused(
      client.rotateVault(other, 'pw', { recovery: false, passkeys: [slot] }),
      'DECRYPT_FAILED',
    );
  });

  it('fingerprints every field, so the manifest pins the slot (a slot added or changed is not pinned)', async () => {
    const slot = passkeySlots(withOne)[0]!;
    const pinned = await slotFingerprint(slot);
    const changes: Partial<KeySlot>[] = [
      { id: uuid() },
      { name: 'Other' },
      { salt: toBase64(randomBytes(32)) },
      { credentialId: credentialId(9) },
      { publicKey: flip(slot.publicKey!, 40) },
      { sealed: flip(slot.sealed!) },
      { commit: flip(slot.commit!) },
      { wrapped: flip(slot.wrapped) },
      { auth: flip(slot.auth!) },
      { escrow: flip(slot.escrow!) },
    ];
    for (const c of changes) expect(await slotFingerprint({ ...slot, ...c })).not.toBe(pinned);
    const other = passkeySlots(
      await client.addPasskeySlot(vaultId, key, password, forAdd(passkey(6))),
    )[0]!;
    expect(await slotFingerprint(other)).not.toBe(pinned);
    // A malformed passkey slot has no fingerprint (it matches no pin).
    for (const bad of [{ commit: undefined }, { name: '' }, { kdf: { alg: 'none' as const } }]) {
      await refused(slotFingerprint({ ...slot, ...bad }), 'INVALID_INPUT');
    }
  });

  it('refuses a key with too many passkey slots, or two of one credential, before any work', async () => {
    let k = withOne;
    for (let n = 2; n <= MAX_PASSKEY_SLOTS; n++) {
      k = await client.addPasskeySlot(vaultId, k, password, forAdd(passkey(n)));
    }
    expect(passkeySlots(k)).toHaveLength(MAX_PASSKEY_SLOTS);
    await expect(
      client.unlockWithPasskey(vaultId, k, one.credentialId, copy(one)),
    ).resolves.toBeTruthy();
    await refused(client.addPasskeySlot(vaultId, k, password, forAdd(passkey(8))), 'INVALID_INPUT');
    const sixth = { ...passkeySlots(k)[1]!, id: uuid(), credentialId: credentialId(12) };
    const tooMany: VaultKey = { format: 'vf1', slots: [...k.slots, sixth] };
    await refused(client.unlockWithPasskey(vaultId, tooMany, one.credentialId, copy(one)));
    await refused(client.unlockVault(vaultId, tooMany, password));
    const twin = { ...passkeySlots(k)[1]!, id: uuid(), credentialId: one.credentialId };
    const twice: VaultKey = { format: 'vf1', slots: [...withOne.slots, twin] };
    await refused(client.unlockWithPasskey(vaultId, twice, one.credentialId, copy(one)));
    // Two password slots refuse the passkey unlock too (the key is refused whole).
    const pw = key.slots[0]!;
    const twoPasswords: VaultKey = {
      format: 'vf1',
      slots: [...withOne.slots, { ...pw, id: uuid() }],
    };
    await refused(client.unlockWithPasskey(vaultId, twoPasswords, one.credentialId, copy(one)));
  });

  it('costs one slot opening for a hostile record of many slots: no password derivation', async () => {
    // A password slot whose parameters are far over the caps: deriving it would be refused (or
    // take minutes), so the unlock succeeding shows it never derives it, nor any other passkey
    // slot than the credential's. (No clock: a timed bound would depend on the machine's load.)
    const hostileKdf = { alg: 'argon2id' as const, m: 4_194_304, t: 64, p: 4 };
    const slow = { ...key.slots[0]!, kdf: hostileKdf };
    const hostile: VaultKey = { format: 'vf1', slots: [slow, ...passkeySlots(withOne)] };
    const s = await client.unlockWithPasskey(vaultId, hostile, one.credentialId, copy(one));
    expect(s).toBeTruthy();
    // The same slot is refused when a password unlock has to derive it.
    const refusedOnce = client.unlockVault(vaultId, { format: 'vf1', slots: [slow] }, password);
    await expect(refusedOnce).rejects.toBeInstanceOf(CryptoError);
  });

  it('survives a password change (same slot) and a rotation without the passkey', async () => {
    const two = passkey(2);
    const k = await client.addPasskeySlot(vaultId, withOne, password, forAdd(two));
    const changed = await client.changePassword(vaultId, k, password, 'new pw', FAST_KDF);
    expect(passkeySlots(changed)).toEqual(passkeySlots(k));
    await expect(
      client.unlockWithPasskey(vaultId, changed, two.credentialId, copy(two)),
    ).resolves.toBeTruthy();

    const rotated = await client.rotateVault(session, 'rotated pw', {
      kdf: FAST_KDF,
      recovery: false,
      passkeys: passkeySlots(changed),
    });
    const carried = passkeySlots(rotated.key);
    expect(carried).toHaveLength(2);
    for (const [i, s] of carried.entries()) {
      const before = passkeySlots(changed)[i]!;
      // Same passkey part, a new wrap.
      expect(s).toMatchObject({
        id: before.id,
        credentialId: before.credentialId,
        name: before.name,
        salt: before.salt,
        publicKey: before.publicKey,
        sealed: before.sealed,
        commit: before.commit,
      });
      expect(s.wrapped).not.toBe(before.wrapped);
      expect(s.escrow).not.toBe(before.escrow);
    }
    const m = await client.signManifest(rotated.session, {
      format: 'vf1-manifest',
      version: 1,
      prev: '',
      vault: { name: 'V', vault_type: 'files', provider_type: 'server' },
      slots: [],
      files: [],
      secrets: [],
    });
    for (const p of [one, two]) {
      const s = await client.unlockWithPasskey(vaultId, rotated.key, p.credentialId, copy(p));
      expect(await client.verifyManifest(s, m), 'the new VMK').toMatchObject({ ok: true });
    }
    // The old key's wrap still opens the old VMK, not the new one; the new escrow needs the new keys.
    const old = await client.unlockWithPasskey(vaultId, changed, one.credentialId, copy(one));
    expect(await client.verifyManifest(old, m)).toMatchObject({ ok: false });
    await refused(
      client.rotateVault(session, 'again', { kdf: FAST_KDF, recovery: false, passkeys: carried }),
      'DECRYPT_FAILED',
    );
    // A passkey slot carried to the new keys rotates again from the new session.
    await expect(
      client.rotateVault(rotated.session, 'again', {
        kdf: FAST_KDF,
        recovery: false,
        passkeys: carried,
      }),
    ).resolves.toBeTruthy();
  });
});
