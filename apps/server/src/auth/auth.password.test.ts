// [Note: test password hashing] (testing/harness.ts): test apps hash account passwords with a
// cheap scrypt; a server built without that choice keeps Better Auth's own, which is checked here.
import { verifyPassword } from 'better-auth/crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/harness.ts';
import { createUser, signIn } from '../testing/users.ts';

// The hash column is Better Auth's, left out of our schema types (db/schema.ts) on purpose.
const storedHash = async (t: Awaited<ReturnType<typeof createTestApp>>, userId: string) => {
  const row = await t.db.kysely
    .selectFrom('account')
    .select(sql<string | null>`password`.as('password'))
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirstOrThrow();
  if (!row.password) throw new Error('no password hash stored');
  return row.password;
};

describe('account password hashing', () => {
  it("is Better Auth's scrypt unless the test harness chose otherwise", async () => {
    const t = await createTestApp({}, { betterAuthPasswordHashing: true });
    try {
      const u = await createUser(t);
      const hash = await storedHash(t, u.id);
      expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      expect(await verifyPassword({ hash, password: u.password })).toBe(true);
      expect(await verifyPassword({ hash, password: 'not the password' })).toBe(false);
      expect((await signIn(t, u.email, 'not the password')).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('in test apps is a cheaper scrypt that still refuses a wrong password', async () => {
    const t = await createTestApp();
    try {
      const u = await createUser(t);
      const hash = await storedHash(t, u.id);
      expect(hash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      // Not Better Auth's parameters: its own check does not accept it.
      expect(await verifyPassword({ hash, password: u.password })).toBe(false);
      expect((await signIn(t, u.email, u.password)).ok).toBe(true);
      expect((await signIn(t, u.email, 'not the password')).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
