// The admin API's invitations (issue 33): admin role only (a non-admin gets 403 and nothing
// changes), each action written to the audit log with its change, only a hash of each token kept.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createdInvitationSchema,
  errorBodySchema,
  invitationResponseSchema,
  invitationsResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import { listAdminActions, recordAdminAction } from './audit.repository.ts';

let t: TestApp;
let admin: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
  user = await createUser(t);
});
afterAll(() => t.close());

const errorOf = async (res: Response) => errorBodySchema.parse(await res.json()).error;
const invitationRows = () =>
  t.db.kysely.selectFrom('invitations').selectAll().orderBy('id').execute();
const auditRows = () =>
  t.db.kysely
    .selectFrom('admin_audit_log')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();

async function invite(body: unknown = {}) {
  const res = await send(t, admin.cookie, 'POST', '/api/admin/invitations', body);
  expect(res.status).toBe(201);
  return createdInvitationSchema.parse(await res.json());
}

describe('access', () => {
  it('answers 401 without a session', async () => {
    const res = await t.request('/api/admin/invitations');
    expect(res.status).toBe(401);
  });

  it('refuses every route to a non-admin with 403, and nothing changes', async () => {
    const open = await invite({ email: 'kept@example.test' });
    const invitationsBefore = await invitationRows();
    const auditBefore = await auditRows();
    const attempts = [
      send(t, user.cookie, 'POST', '/api/admin/invitations', {}),
      send(t, user.cookie, 'POST', '/api/admin/invitations', { email: 'x@example.test' }),
      send(t, user.cookie, 'GET', '/api/admin/invitations'),
      send(t, user.cookie, 'DELETE', `/api/admin/invitations/${open.invitation.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toEqual({
        code: 'forbidden',
        message: 'Admin privileges required',
      });
    }
    expect(await invitationRows()).toEqual(invitationsBefore);
    expect(await auditRows()).toEqual(auditBefore);
  });
});

describe('POST /api/admin/invitations', () => {
  it('makes a link with its token once, keeps only its hash, and logs the action', async () => {
    t.clock.now = new Date('2030-01-01T00:00:00.000Z');
    try {
      const made = await invite({ email: 'Ada@Example.test', expires_in_hours: 48 });
      expect(made.url).toBe(`${t.config.publicUrl}/auth?invite=${made.token}`);
      expect(made.invitation).toMatchObject({
        email: 'ada@example.test',
        status: 'open',
        created_by: admin.id,
        created_at: '2030-01-01T00:00:00.000Z',
        expires_at: '2030-01-03T00:00:00.000Z',
        used_at: null,
        used_by: null,
        revoked_at: null,
      });
      const row = (await invitationRows()).find((r) => r.id === made.invitation.id);
      expect(row?.token_hash).toBe(crypto.createHash('sha256').update(made.token).digest('hex'));
      // The token is nowhere else: not in the table, the audit log or the logs.
      const stored = JSON.stringify([await invitationRows(), await auditRows()]);
      expect(stored).not.toContain(made.token);
      expect(t.logs()).not.toContain(made.token);
      const audit = (await auditRows()).filter((r) => r.target === made.invitation.id);
      expect(audit).toEqual([
        {
          id: expect.any(String) as string,
          actor_id: admin.id,
          action: 'invitation.create',
          target: made.invitation.id,
          details: JSON.stringify({
            email: 'ada@example.test',
            expires_at: '2030-01-03T00:00:00.000Z',
          }),
          created_at: '2030-01-01T00:00:00.000Z',
        },
      ]);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('makes an invitation for anyone that never expires when given neither', async () => {
    const made = await invite();
    expect(made.invitation).toMatchObject({ email: null, expires_at: null, status: 'open' });
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it.each([
    ['a bad e-mail', { email: 'not-an-email' }],
    ['an expiry of 0 hours', { expires_in_hours: 0 }],
    ['an expiry past a year', { expires_in_hours: 24 * 366 }],
    ['a fractional expiry', { expires_in_hours: 1.5 }],
    ['an unknown field', { email: 'a@example.test', role: 'admin' }],
    ['not an object', ['a@example.test']],
  ])('refuses %s with 400 and makes nothing', async (_what, body) => {
    const before = (await invitationRows()).length;
    const audit = (await auditRows()).length;
    const res = await send(t, admin.cookie, 'POST', '/api/admin/invitations', body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('bad_request');
    expect(await invitationRows()).toHaveLength(before);
    expect(await auditRows()).toHaveLength(audit);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await t.request('/api/admin/invitations', {
      method: 'POST',
      headers: { cookie: admin.cookie, 'content-type': 'application/json' },
      body: '{',
    });
    expect(res.status).toBe(400);
  });
});

describe('GET /api/admin/invitations', () => {
  it('lists them newest first with their status, never a token', async () => {
    // Later than every other invitation of this file (one is made in 2030).
    t.clock.now = new Date('2040-01-01T00:00:00.000Z');
    const newest = await invite({ email: 'newest@example.test' });
    t.clock.now = new Date();
    const res = await send(t, admin.cookie, 'GET', '/api/admin/invitations');
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).not.toContain(newest.token);
    expect(raw).not.toContain('token');
    const { invitations } = invitationsResponseSchema.parse(JSON.parse(raw));
    expect(invitations[0]?.id).toBe(newest.invitation.id);
    expect(invitations.length).toBe((await invitationRows()).length);
  });
});

describe('DELETE /api/admin/invitations/:id', () => {
  it('revokes an open invitation once and logs it; a second revoke is 409', async () => {
    const made = await invite({ email: 'revoke@example.test' });
    const res = await send(
      t,
      admin.cookie,
      'DELETE',
      `/api/admin/invitations/${made.invitation.id}`,
    );
    expect(res.status).toBe(200);
    const { invitation } = invitationResponseSchema.parse(await res.json());
    expect(invitation).toMatchObject({ id: made.invitation.id, status: 'revoked' });
    expect(invitation.revoked_at).not.toBeNull();
    // Both rows may carry the same millisecond: compared in the order of their actions.
    const audit = (await auditRows())
      .filter((r) => r.target === made.invitation.id)
      .sort((a, b) => a.action.localeCompare(b.action));
    expect(audit.map((r) => [r.action, r.actor_id, JSON.parse(r.details) as unknown])).toEqual([
      ['invitation.create', admin.id, { email: 'revoke@example.test', expires_at: null }],
      ['invitation.revoke', admin.id, { email: 'revoke@example.test' }],
    ]);
    const again = await send(
      t,
      admin.cookie,
      'DELETE',
      `/api/admin/invitations/${made.invitation.id}`,
    );
    expect(again.status).toBe(409);
    expect((await auditRows()).filter((r) => r.target === made.invitation.id)).toHaveLength(2);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid', '%27%3B']) {
      const res = await send(t, admin.cookie, 'DELETE', `/api/admin/invitations/${id}`);
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe('not_found');
    }
  });
});

describe('recordAdminAction', () => {
  it('writes one row others can reuse, newest first in the list', async () => {
    const at = new Date('2050-01-01T00:00:00.000Z');
    const row = await recordAdminAction(
      t.db.kysely,
      { actorId: admin.id, action: 'user.disable', target: user.id, details: { reason: 'test' } },
      at,
    );
    expect(row).toMatchObject({
      actor_id: admin.id,
      action: 'user.disable',
      target: user.id,
      details: '{"reason":"test"}',
      created_at: at.toISOString(),
    });
    expect((await listAdminActions(t.db.kysely, 1))[0]).toEqual(row);
  });
});
