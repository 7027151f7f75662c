// Vault creation accepts only the storage providers this server offers (issue 14): ours and the
// browser's always, the cloud ones only once configured (none is, yet).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, vaultResponseSchema, vaultsResponseSchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser } from '../testing/users.ts';
import { send, setPlan, vaultRequest } from '../testing/vaults.ts';
import { offeredProviders } from './providers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('storage providers at vault creation', () => {
  it('offers our server and this browser only while no cloud provider is configured', () => {
    expect([...offeredProviders(t.config)].sort()).toEqual(['local', 'server']);
  });

  it('creates files and secrets vaults on our server and in this browser', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    for (const vault_type of ['files', 'secrets'] as const) {
      for (const provider_type of ['server', 'local'] as const) {
        const res = await send(t, u.cookie, 'POST', '/api/vaults', {
          ...vaultRequest({ vault_type, provider_type }),
        });
        expect(res.status).toBe(201);
        expect(vaultResponseSchema.parse(await res.json()).vault).toMatchObject({
          vault_type,
          provider_type,
        });
      }
    }
  });

  it('refuses a cloud provider this server does not offer, with a clear 400', async () => {
    const u = await createUser(t);
    await setPlan(t, u.id, 'unlimited');
    const names = { googledrive: 'Google Drive', dropbox: 'Dropbox', onedrive: 'OneDrive' };
    for (const [provider_type, name] of Object.entries(names)) {
      for (const vault_type of ['files', 'secrets'] as const) {
        const res = await send(t, u.cookie, 'POST', '/api/vaults', {
          ...vaultRequest({ vault_type, provider_type: provider_type as keyof typeof names }),
        });
        expect(res.status).toBe(400);
        expect(errorBodySchema.parse(await res.json()).error).toEqual({
          code: 'bad_request',
          message: `${name} is not available on this server.`,
        });
      }
    }
    const list = vaultsResponseSchema.parse(
      await (await send(t, u.cookie, 'GET', '/api/vaults')).json(),
    );
    expect(list.vaults).toEqual([]);
  });

  it('still refuses a provider that does not exist (schema, 400)', async () => {
    const u = await createUser(t);
    const res = await send(t, u.cookie, 'POST', '/api/vaults', {
      ...vaultRequest(),
      provider_type: 'ftp',
    });
    expect(res.status).toBe(400);
  });
});
