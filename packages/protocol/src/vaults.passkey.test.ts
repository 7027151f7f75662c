// Passkey key slots in the key the server takes (issue 30): the passkey fields on passkey slots
// only, with a commit; at most five of them, each credential once, within the 8 slots.
import { describe, expect, it } from 'vitest';
import {
  MAX_PASSKEY_SLOTS,
  ONE_SLOT_PER_KIND_MESSAGE,
  PASSKEY_SLOTS_MESSAGE,
  vaultKeyRecordSchema,
  vaultKeySchema,
  type KeySlot,
} from './vaults.ts';

const b64 = (n: number, fill = 1) => Buffer.alloc(n, fill).toString('base64');
const password: KeySlot = {
  id: crypto.randomUUID(),
  kind: 'password',
  kdf: { alg: 'argon2id', m: 65536, t: 3, p: 1 },
  salt: b64(16),
  wrapped: b64(60),
  commit: b64(32, 9),
};
const passkey = (n: number, over: Partial<KeySlot> = {}): KeySlot => ({
  id: crypto.randomUUID(),
  kind: 'passkey',
  kdf: { alg: 'prf-hkdf-sha256' },
  salt: b64(32),
  wrapped: b64(125),
  commit: b64(32, 9),
  credentialId: Buffer.alloc(16, n).toString('base64url'),
  name: `Passkey added 27 Nov 2026 (${n})`,
  publicKey: b64(65, 4),
  sealed: b64(92),
  auth: b64(32, 7),
  escrow: b64(60),
  ...over,
});
const parse = (...slots: KeySlot[]) => vaultKeySchema.safeParse({ format: 'vf1', slots });

describe('passkey slots in a vault key', () => {
  it('are taken next to the password slot, up to five', () => {
    expect(parse(password, passkey(1)).success).toBe(true);
    const five = Array.from({ length: MAX_PASSKEY_SLOTS }, (_, i) => passkey(i + 1));
    expect(parse(password, ...five).success).toBe(true);
  });

  it('refuse a sixth passkey slot or a credential twice', () => {
    const six = Array.from({ length: MAX_PASSKEY_SLOTS + 1 }, (_, i) => passkey(i + 1));
    for (const r of [parse(password, ...six), parse(password, passkey(1), passkey(1))]) {
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(PASSKEY_SLOTS_MESSAGE);
    }
    // The one-of-each rule stays.
    expect(parse(password, password, passkey(1)).error?.issues[0]?.message).toBe(
      ONE_SLOT_PER_KIND_MESSAGE,
    );
  });

  it.each<[string, Partial<KeySlot>]>([
    ['no commit (uncommitted)', { commit: undefined }],
    ['no credential id', { credentialId: undefined }],
    ['a credential id that is not base64url', { credentialId: 'a+b/c=' }],
    ['no name', { name: undefined }],
    ['a name too long', { name: 'x'.repeat(65) }],
    ['no public key', { publicKey: undefined }],
    ['no sealed key', { sealed: undefined }],
    ['no auth', { auth: undefined }],
    ['an auth not of 32 bytes', { auth: b64(31) }],
    ['no escrow', { escrow: undefined }],
    ['a password KDF', { kdf: { alg: 'argon2id', m: 65536, t: 3, p: 1 } }],
  ])('refuse a passkey slot with %s', (_, over) => {
    expect(parse(password, passkey(1, over)).success).toBe(false);
  });

  it('refuse passkey fields or the PRF KDF on another kind of slot', () => {
    expect(parse({ ...password, credentialId: 'AAAA' }).success).toBe(false);
    expect(parse({ ...password, kdf: { alg: 'prf-hkdf-sha256' } }).success).toBe(false);
  });

  it('keep the 8-slot cap of a key record', () => {
    const slots = [password, ...Array.from({ length: 8 }, (_, i) => passkey(i + 1))];
    expect(vaultKeyRecordSchema.safeParse({ format: 'vf1', slots }).success).toBe(false);
  });
});
