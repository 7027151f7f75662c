// Issue 25, finding 2: while the disk is full, a write the database refuses (SQLite's SQLITE_FULL,
// PostgreSQL's disk_full) is answered with a clear JSON 503 'storage_full', never a 500: sign-in
// and sign-up (Better Auth's routes), a secret, a vault. Reads keep working, and so does every
// write once space returns. testing/full-disk.ts makes the database's writes fail as on a full disk.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, messages } from '@sealvault/protocol';
import { fillDatabase } from '../testing/full-disk.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, postJson, signIn } from '../testing/users.ts';
import { b64, createVault, send, vaultRequest } from '../testing/vaults.ts';

let t: TestApp;
let disk: { free: () => void } | null = null;
beforeAll(async () => {
  t = await createTestApp();
});
afterEach(() => {
  disk?.free();
  disk = null;
});
afterAll(() => t.close());

async function expectStorageFull(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(errorBodySchema.parse(await res.json())).toEqual({
    error: { code: 'storage_full', message: messages.generic.storageFull },
  });
}

const newSecret = () => ({ id: randomUUID(), revision: 1, key_revision: 0, data: b64(80) });

describe('a full disk', () => {
  it('answers sign-in and sign-up 503 storage_full JSON, and both work once space returns', async () => {
    const user = await createUser(t);
    disk = fillDatabase(t);
    await expectStorageFull(await signIn(t, user.email, user.password));
    const email = `user-${randomUUID()}@example.test`;
    const signUp = () =>
      postJson(t, '/api/auth/sign-up/email', { email, password: 'correct horse 42', name: 'A' });
    await expectStorageFull(await signUp());
    disk.free();
    disk = null;
    expect((await signIn(t, user.email, user.password)).status).toBe(200);
    expect((await signUp()).status).toBe(200);
  });

  it('answers creating a secret or a vault 503 storage_full JSON; reads still work', async () => {
    const user = await createUser(t);
    const vault = await createVault(t, user.cookie, { vault_type: 'secrets' });
    disk = fillDatabase(t);
    const secret = newSecret();
    await expectStorageFull(
      await send(t, user.cookie, 'POST', `/api/vaults/${vault}/secrets`, secret),
    );
    await expectStorageFull(await send(t, user.cookie, 'POST', '/api/vaults', vaultRequest()));
    const list = await send(t, user.cookie, 'GET', `/api/vaults/${vault}/secrets`);
    expect(list.status).toBe(200);
    disk.free();
    disk = null;
    expect(
      (await send(t, user.cookie, 'POST', `/api/vaults/${vault}/secrets`, secret)).status,
    ).toBe(201);
  });

  it('still answers other failures with the generic 500, revealing nothing', async () => {
    const user = await createUser(t);
    const vault = await createVault(t, user.cookie, { vault_type: 'secrets' });
    const sqlite = t.db.kind === 'sqlite';
    const broken = Object.assign(new Error('disk I/O error: secret detail'), {
      code: sqlite ? 'SQLITE_CORRUPT' : 'XX001',
    });
    const realTransaction = t.db.kysely.transaction.bind(t.db.kysely);
    t.db.kysely.transaction = (() => ({ execute: () => Promise.reject(broken) })) as never;
    try {
      const res = await send(t, user.cookie, 'POST', `/api/vaults/${vault}/secrets`, newSecret());
      expect(res.status).toBe(500);
      expect(await res.text()).not.toMatch(/secret detail/);
    } finally {
      t.db.kysely.transaction = realTransaction;
    }
  });
});
