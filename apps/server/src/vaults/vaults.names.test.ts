// Issue 25: two vaults of one account cannot share a name (case and surrounding spaces aside),
// on create and on rename; another account may use the same name. The check is in the service,
// not a unique index, so a database that already holds duplicates still reads.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorBodySchema, messages, vaultResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { createVault, send as sendAs, setPlan, vaultRequest } from '../testing/vaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  sendAs(t, cookie, method, path, body);

async function refusal(res: Response) {
  expect(res.status).toBe(409);
  return errorBodySchema.parse(await res.json()).error.message;
}

it('refuses a second vault whose name differs only in case or spaces, with 409 and our message', async () => {
  const u = await createUser(t);
  await setPlan(t, u.id, 'pro');
  await createVault(t, u.cookie, { name: 'Browser docs' });
  for (const name of ['Browser docs', '  BROWSER DOCS  ', 'browser docs']) {
    const res = await send(u.cookie, 'POST', '/api/vaults', vaultRequest({ name }));
    expect(await refusal(res)).toBe(messages.vaults.duplicateName);
  }
  // Another type does not make the same name clearer on the dashboard.
  const secrets = vaultRequest({ name: 'browser Docs', vault_type: 'secrets' });
  await refusal(await send(u.cookie, 'POST', '/api/vaults', secrets));

  const other = vaultRequest({ name: 'Browser docs 2' });
  expect((await send(u.cookie, 'POST', '/api/vaults', other)).status).toBe(201);

  // Someone else's vault of that name is no concern of this account.
  const v = await createUser(t);
  expect(
    (await send(v.cookie, 'POST', '/api/vaults', vaultRequest({ name: 'Browser docs' }))).status,
  ).toBe(201);
});

it('refuses a rename to another vault’s name, and lets a vault keep or recase its own', async () => {
  const u = await createUser(t);
  await setPlan(t, u.id, 'pro');
  const a = await createVault(t, u.cookie, { name: 'Photos' });
  const b = await createVault(t, u.cookie, { name: 'Scans' });
  const taken = await send(u.cookie, 'PATCH', `/api/vaults/${b}`, { name: ' photos ' });
  expect(await refusal(taken)).toBe(messages.vaults.duplicateName);
  const kept = vaultResponseSchema.parse(
    await (await send(u.cookie, 'GET', `/api/vaults/${b}`)).json(),
  );
  expect(kept.vault.name).toBe('Scans');

  const recased = await send(u.cookie, 'PATCH', `/api/vaults/${a}`, { name: 'PHOTOS' });
  expect(recased.status).toBe(200);
  expect(vaultResponseSchema.parse(await recased.json()).vault.name).toBe('PHOTOS');
  // A description change alone is never refused.
  const described = await send(u.cookie, 'PATCH', `/api/vaults/${b}`, { description: 'x' });
  expect(described.status).toBe(200);
});

it('answers 404, not 409, for a rename of another user’s vault', async () => {
  const owner = await createUser(t);
  const id = await createVault(t, owner.cookie, { name: 'Owned' });
  const other = await createUser(t);
  await createVault(t, other.cookie, { name: 'Mine' });
  const res = await send(other.cookie, 'PATCH', `/api/vaults/${id}`, { name: 'Mine' });
  expect(res.status).toBe(404);
});

it('still lists vaults that share a name from before the rule', async () => {
  const u = await createUser(t);
  await setPlan(t, u.id, 'pro');
  const a = await createVault(t, u.cookie, { name: 'Old' });
  const b = await createVault(t, u.cookie, { name: 'Older' });
  await t.db.kysely.updateTable('vaults').set({ name: 'Old' }).where('id', '=', b).execute();
  const list = await send(u.cookie, 'GET', '/api/vaults');
  expect(list.status).toBe(200);
  // And the other one can still be renamed away from the clash.
  const renamed = await send(u.cookie, 'PATCH', `/api/vaults/${a}`, { name: 'Old (2019)' });
  expect(renamed.status).toBe(200);
});
