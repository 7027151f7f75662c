import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorBodySchema,
  messages,
  subscriptionMessages,
  vaultVisibilityResponseSchema,
  vaultsResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { createVault, send, setPlan } from '../testing/vaults.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const patch = (cookie: string, id: string, body: unknown) =>
  send(t, cookie, 'PATCH', `/api/vaults/${id}/visibility`, body);

async function hiddenOf(cookie: string, id: string): Promise<boolean | undefined> {
  const list = vaultsResponseSchema.parse(
    await (await send(t, cookie, 'GET', '/api/vaults')).json(),
  );
  return list.vaults.find((v) => v.id === id)?.is_hidden;
}

describe('PATCH /api/vaults/:vaultId/visibility', () => {
  it('hides and shows a vault on the Pro plan', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'pro');
    const id = await createVault(t, u.cookie);
    const res = await patch(u.cookie, id, { is_hidden: true });
    expect(res.status).toBe(200);
    expect(vaultVisibilityResponseSchema.parse(await res.json()).vault.is_hidden).toBe(true);
    expect(await hiddenOf(u.cookie, id)).toBe(true);
    expect((await patch(u.cookie, id, { is_hidden: false })).status).toBe(200);
    expect(await hiddenOf(u.cookie, id)).toBe(false);
  });

  it.each(['free', 'basic', 'unlimited'])(
    'refuses to hide on the %s plan with the upgrade message',
    async (plan) => {
      const u = await createUser(t);
      const id = await createVault(t, u.cookie);
      await setPlan(t, u.id, plan);
      const res = await patch(u.cookie, id, { is_hidden: true });
      expect(res.status).toBe(403);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(
        subscriptionMessages.hideRequiresPro,
      );
      expect(await hiddenOf(u.cookie, id)).toBe(false);
    },
  );

  it('lets any plan show a hidden vault again', async () => {
    const u = await createUser(t);
    const id = await createVault(t, u.cookie);
    await t.db.kysely.updateTable('vaults').set({ is_hidden: 1 }).where('id', '=', id).execute();
    expect((await patch(u.cookie, id, { is_hidden: false })).status).toBe(200);
    expect(await hiddenOf(u.cookie, id)).toBe(false);
  });

  it("answers 404 for another user's vault, even on Pro, and leaves it alone", async () => {
    const owner = await createUser(t);
    await setPlan(t, owner.id, 'pro');
    const id = await createVault(t, owner.cookie);
    for (const plan of ['pro', 'free']) {
      const other = await createUser(t);
      await setPlan(t, other.id, plan);
      const res = await patch(other.cookie, id, { is_hidden: true });
      expect(res.status).toBe(404);
      expect(errorBodySchema.parse(await res.json()).error.message).toBe(messages.vaults.notFound);
    }
    expect(await hiddenOf(owner.cookie, id)).toBe(false);
  });

  it('validates the id and the body, and needs a session', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'pro');
    const id = await createVault(t, u.cookie);
    expect((await patch(u.cookie, 'not-a-uuid', { is_hidden: true })).status).toBe(404);
    expect((await patch(u.cookie, id, { is_hidden: 'yes' })).status).toBe(400);
    expect((await patch(u.cookie, id, {})).status).toBe(400);
    expect((await patch('', id, { is_hidden: true })).status).toBe(401);
  });

  it('shows hidden vaults again when the user leaves Pro', async () => {
    const admin = await createUser(t, { role: 'admin' });
    await setPlan(t, admin.id, 'pro');
    const id = await createVault(t, admin.cookie);
    await patch(admin.cookie, id, { is_hidden: true });
    await send(t, admin.cookie, 'POST', '/api/subscription/admin-upgrade', {
      plan_id: 'basic',
      bypass_payment: true,
    });
    expect(await hiddenOf(admin.cookie, id)).toBe(false);
  });
});
