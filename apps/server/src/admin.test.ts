// The admin command: promote and demote by e-mail, a clear failure for an unknown e-mail or bad
// arguments, and the role change seen by the API. One run goes through `npm run admin` itself
// (main() only prints runAdmin's message and exits with its code).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COMMAND_ACTOR, meResponseSchema } from '@sealvault/protocol';
import { runAdmin } from './admin.ts';
import { createTestApp, type TestApp } from './testing/harness.ts';
import { createUser } from './testing/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const roleOf = async (cookie: string) =>
  meResponseSchema.parse(await (await t.request('/api/me', { headers: { cookie } })).json()).role;

describe('npm run admin', () => {
  it('promotes and demotes by e-mail (case-insensitive), seen by /api/me', async () => {
    const u = await createUser(t);
    expect(await runAdmin(['promote', u.email.toUpperCase()], t.config)).toEqual({
      code: 0,
      message: `${u.email.toUpperCase()} is now an admin.`,
    });
    expect(await roleOf(u.cookie)).toBe('admin');
    const demoted = await runAdmin(['demote', u.email], t.config);
    expect(demoted.code).toBe(0);
    expect(await roleOf(u.cookie)).toBe('user');
    // Each change is in the audit log, by the command (no admin is signed in there).
    const rows = await t.db.kysely
      .selectFrom('admin_audit_log')
      .select(['actor_id', 'action', 'details'])
      .where('target', '=', u.id)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => [r.actor_id, r.action, JSON.parse(r.details) as unknown])).toEqual([
      [ADMIN_COMMAND_ACTOR, 'user.role', { email: u.email, from: 'user', to: 'admin' }],
      [ADMIN_COMMAND_ACTOR, 'user.role', { email: u.email, from: 'admin', to: 'user' }],
    ]);
  });

  it('fails with a message for an unknown e-mail or bad arguments', async () => {
    expect(await runAdmin(['promote', 'nobody@example.test'], t.config)).toEqual({
      code: 1,
      message: 'No user with the e-mail nobody@example.test.',
    });
    expect((await runAdmin(['elevate', 'x@example.test'], t.config)).message).toMatch(/^Usage/);
    expect((await runAdmin(['promote'], t.config)).code).toBe(1);
  });

  it('runs as `npm run admin` against the server’s database', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const env = {
      ...process.env,
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.database.kind === 'postgres' ? t.config.database.url : '',
      BETTER_AUTH_SECRET: t.config.auth.secret ?? '',
      OPAQUE_SERVER_SETUP: t.config.auth.opaqueServerSetup ?? '',
    };
    const u = await createUser(t);
    const ok = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'admin', '--', 'promote', u.email],
      { cwd: root, env },
    );
    expect(ok.stdout.trim()).toBe(`${u.email} is now an admin.`);
    expect(await roleOf(u.cookie)).toBe('admin');
  });
});
