// Vaults for tests, made through the real API: requests with a session cookie, a schema-valid
// vf1 key (the server cannot open keys anyway), and the plan of a user.
import { randomUUID } from 'node:crypto';
import type { CreateVaultRequest } from '@sealvault/protocol';
import type { TestApp } from './harness.ts';

export const b64 = (n: number, fill = 7) => Buffer.alloc(n, fill).toString('base64');

let made = 0;

/**
 * A valid POST /api/vaults body: a files vault on the server provider, with a fresh id and a
 * name of its own (an account's vaults may not share one, protocol vaultNames.ts).
 */
export function vaultRequest(over: Partial<CreateVaultRequest> = {}): CreateVaultRequest {
  return {
    id: randomUUID(),
    name: `Tax records ${++made}`,
    description: 'Scans for 2026',
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
    ...over,
  };
}

export const send = (t: TestApp, cookie: string, method: string, path: string, body?: unknown) =>
  t.request(path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Creates a vault as the cookie's user; returns its id. */
export async function createVault(
  t: TestApp,
  cookie: string,
  over: Partial<CreateVaultRequest> = {},
): Promise<string> {
  const body = vaultRequest(over);
  const res = await send(t, cookie, 'POST', '/api/vaults', body);
  if (res.status !== 201) throw new Error(`vault creation failed: ${res.status}`);
  return body.id;
}

export async function setPlan(t: TestApp, userId: string, plan: string): Promise<void> {
  await t.db.kysely
    .updateTable('profiles')
    .set({ current_plan_id: plan })
    .where('id', '=', userId)
    .execute();
}
