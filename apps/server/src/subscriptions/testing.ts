// Helpers for this feature's server tests: requests with a session cookie and vaults created
// through the real API (a schema-valid vf1 key; the server cannot open keys anyway).
import { randomUUID } from 'node:crypto';
import type { TestApp } from '../testing/harness.ts';

export const send = (t: TestApp, cookie: string, method: string, path: string, body?: unknown) =>
  t.request(path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const b64 = (n: number) => Buffer.alloc(n, 7).toString('base64');

export async function createVault(t: TestApp, cookie: string, name = 'Vault'): Promise<string> {
  const id = randomUUID();
  const res = await send(t, cookie, 'POST', '/api/vaults', {
    id,
    name,
    vault_type: 'files',
    provider_type: 'server',
    key: {
      format: 'vf1',
      slots: [
        {
          id: 'pw',
          kind: 'password',
          kdf: { alg: 'argon2id', m: 65536, t: 3, p: 1 },
          salt: b64(16),
          wrapped: b64(60),
        },
      ],
    },
  });
  if (res.status !== 201) throw new Error(`vault creation failed: ${res.status}`);
  return id;
}

export async function setPlan(t: TestApp, userId: string, plan: string): Promise<void> {
  await t.db.kysely
    .updateTable('profiles')
    .set({ current_plan_id: plan })
    .where('id', '=', userId)
    .execute();
}
