// Passkey key slots (issue 30): the server stores them like any slot, through the key-update
// route with compare-and-swap on the key revision, and refuses a sixth passkey, a credential
// twice and a malformed passkey slot with a 400 that names the rule. It cannot open any of them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  PASSKEY_SLOTS_MESSAGE,
  vaultResponseSchema,
  type KeySlot,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { b64, send as sendAs, vaultRequest } from '../testing/vaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);

const passkey = (n: number): KeySlot => ({
  id: randomUUID(),
  kind: 'passkey',
  kdf: { alg: 'prf-hkdf-sha256' },
  salt: b64(32),
  wrapped: b64(125),
  commit: b64(32, 8),
  credentialId: Buffer.alloc(16, n).toString('base64url'),
  name: `Passkey added 27 Nov 2026`,
  publicKey: b64(65, 4),
  sealed: b64(92),
  auth: b64(32, 8),
  escrow: b64(60),
});

describe('passkey slots', () => {
  it('are stored with compare-and-swap, five at most, each credential once', async () => {
    const u = await createUser(t);
    const input = vaultRequest();
    expect((await send(u.cookie, 'POST', '/api/vaults', input)).status).toBe(201);
    const path = `/api/vaults/${input.id}/key`;
    const [pw] = input.key.slots;
    const key = { format: 'vf1', slots: [pw!, passkey(1), passkey(2)] };
    const added = await send(u.cookie, 'PUT', path, { expected_revision: 0, key });
    expect(added.status).toBe(200);
    expect(vaultResponseSchema.parse(await added.json()).vault).toMatchObject({
      key_revision: 1,
      key,
    });
    // A device that had not seen the change loses the race.
    const stale = await send(u.cookie, 'PUT', path, { expected_revision: 0, key: input.key });
    expect(stale.status).toBe(409);

    const six = { format: 'vf1', slots: [pw!, ...[1, 2, 3, 4, 5, 6].map(passkey)] };
    const twice = { format: 'vf1', slots: [pw!, passkey(1), passkey(1)] };
    for (const bad of [six, twice]) {
      const res = await send(u.cookie, 'PUT', path, { expected_revision: 1, key: bad });
      expect(res.status).toBe(400);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(
        `key.slots: ${PASSKEY_SLOTS_MESSAGE}`,
      );
    }
    const uncommitted: Partial<KeySlot> = passkey(3);
    delete uncommitted.commit;
    const res = await send(u.cookie, 'PUT', path, {
      expected_revision: 1,
      key: { format: 'vf1', slots: [pw!, uncommitted] },
    });
    expect(res.status).toBe(400);

    // Removing a passkey is a key update too.
    const removed = await send(u.cookie, 'PUT', path, {
      expected_revision: 1,
      key: { format: 'vf1', slots: [pw!, key.slots[2]!] },
    });
    expect(removed.status).toBe(200);
    expect(vaultResponseSchema.parse(await removed.json()).vault.key.slots).toHaveLength(2);
  });
});
