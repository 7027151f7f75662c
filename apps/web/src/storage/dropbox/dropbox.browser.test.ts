// The Dropbox provider in Chromium against the Dropbox emulator (cloud/emulators.setup.ts): the
// provider contract, and the rules of Dropbox's API the provider must follow (an upload session
// for anything over one request, resuming at correct_offset after a lost connection, 429 with
// Retry-After, an expired token renewed with the refresh token, a revoked one disconnecting).
import { beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { setStorageConfig } from '../cloud/config.ts';
import { connections } from '../cloud/connections.ts';
import { setFolder } from '../cloud/folders.ts';
import { emulatorControl } from '../cloud/emulator.testkit.ts';
import { bytesOf, providerContract, streamOf, testHasher } from '../contract.testkit.ts';
import { withContentHash } from '../hashing.ts';
import { createDropboxProvider, PIECE_BYTES } from './dropbox.ts';

const { dropbox: urls } = inject('emulators');
const settings = {
  app_key: 'emulator-app',
  auth_url: urls.authUrl,
  api_url: urls.apiUrl,
  content_url: urls.contentUrl,
};
const control = emulatorControl('/__dropbox-control');

/** A connected account: a token pair straight from the emulator (the popup is e2e's part). */
async function connect() {
  const t = await control('tokens', { offline: true, client_id: settings.app_key });
  connections.save('dropbox', {
    accessToken: t.access_token as string,
    expiresAt: Date.now() + (t.expires_in as number) * 1000,
    refreshToken: t.refresh_token as string,
  });
}

setStorageConfig({ dropbox: settings, googledrive: null, onedrive: null });
const provider = createDropboxProvider(() => settings);

/** A fresh vault with its folder, as the wizard makes it. */
async function vault(): Promise<string> {
  const vaultId = crypto.randomUUID();
  setFolder(vaultId, await provider.makeFolder!(`SealVault_Contract ${vaultId.slice(0, 8)}`));
  return vaultId;
}

beforeEach(async () => {
  await control('faults', undefined, 'DELETE');
  await connect();
});

providerContract('dropbox (emulator)', async () => {
  await connect();
  return { provider: withContentHash(provider, testHasher), vaultId: await vault() };
});

const stats = async () =>
  (await control('stats', undefined, 'GET')).requests as Record<string, number>;

describe('Dropbox rules', () => {
  it('uses an upload session for a 9 MB blob, and Dropbox holds the same content hash', async () => {
    const vaultId = await vault();
    const before = await stats();
    const data = bytesOf(9 * 1000 * 1000, 5);
    const stored = await provider.put(vaultId, 'nine', data.length, streamOf(data));
    const after = await stats();
    const n = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
    expect(n('/2/files/upload_session/start')).toBe(1);
    // The first piece goes with start and the last with finish.
    expect(n('/2/files/upload_session/append_v2')).toBe(
      Math.max(Math.ceil(data.length / PIECE_BYTES) - 2, 0),
    );
    expect(n('/2/files/upload_session/finish')).toBe(1);
    expect(stored.providerHash).toMatch(/^[0-9a-f]{64}$/);
    await provider.removeContainer(vaultId);
  });

  it('goes on at correct_offset when a request was received but its answer lost', async () => {
    const vaultId = await vault();
    await control('faults', {
      path: '/2/files/upload_session/append_v2',
      count: 1,
      destroy: 'before-response',
    });
    const data = bytesOf(20 * 1024 * 1024, 9);
    const stored = await provider.put(vaultId, 'resumed', data.length, streamOf(data));
    expect(stored.size).toBe(data.length);
    // The append was applied, its answer lost, sent again (by Chromium itself, or by us) and
    // refused with incorrect_offset, from whose correct_offset the upload went on.
    const log = (await control('stats', undefined, 'GET')).log as {
      path: string;
      status: unknown;
    }[];
    const appends = log.filter((l) => l.path === '/2/files/upload_session/append_v2');
    expect(appends.map((l) => l.status)).toEqual(['destroyed', 409]);
    const back = new Uint8Array(
      await new Response(await provider.get(vaultId, 'resumed')).arrayBuffer(),
    );
    expect(back.length).toBe(data.length);
    expect(back.every((b, i) => b === data[i])).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('waits as a 429 says and then succeeds', async () => {
    const vaultId = await vault();
    await control('faults', { path: '/2/files/list_folder', count: 1, status: 429, retryAfter: 1 });
    const t0 = performance.now();
    expect(await provider.list(vaultId)).toEqual([]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    await provider.removeContainer(vaultId);
  });

  it('renews an expired access token with the refresh token, without asking', async () => {
    const vaultId = await vault();
    const old = connections.token('dropbox')!.accessToken;
    await control('expire-tokens');
    await provider.put(vaultId, 'after-expiry', 3, streamOf(bytesOf(3)));
    expect(connections.token('dropbox')!.accessToken).not.toBe(old);
    await provider.removeContainer(vaultId);
  });

  it('forgets a revoked connection and says Dropbox is not connected', async () => {
    const vaultId = await vault();
    await control('revoke-all');
    await expect(provider.list(vaultId)).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Dropbox not connected',
    });
    expect(connections.isConnected('dropbox')).toBe(false);
  });

  it('escapes non-ASCII names in Dropbox-API-Arg', async () => {
    await connect();
    const folder = await provider.makeFolder!('SealVault_Déclarations 2026 ✓');
    expect(folder).toBe('/SealVault_Déclarations 2026 ✓');
    const vaultId = crypto.randomUUID();
    setFolder(vaultId, folder);
    await provider.put(vaultId, 'x', 2, streamOf(bytesOf(2)));
    expect(await provider.stat(vaultId, 'x')).toEqual({ ref: 'x', size: 2 });
    await provider.removeContainer(vaultId);
  });
});
