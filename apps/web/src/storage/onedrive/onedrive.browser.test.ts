// The OneDrive provider in Chromium against the OneDrive emulator (cloud/emulators.setup.ts): the
// provider contract, and the rules of Graph the provider must follow (an upload session in 320 KiB
// multiples with no token on the upload URL, going on from nextExpectedRanges after a 503, 429 with
// Retry-After, children paged with @odata.nextLink, an expired download URL fetched again, an
// expired token renewed with the refresh token, a revoked one disconnecting, a full drive).
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { setStorageConfig } from '../cloud/config.ts';
import { connections } from '../cloud/connections.ts';
import { emulatorControl } from '../cloud/emulator.testkit.ts';
import { setFolder } from '../cloud/folders.ts';
import { bytesOf, providerContract, streamOf, testHasher } from '../contract.testkit.ts';
import { withContentHash } from '../hashing.ts';
import { createOneDriveProvider, FRAGMENT_BYTES, FRAGMENT_UNIT } from './onedrive.ts';
import { quickXorHash } from './quickxor.ts';

const { onedrive: urls } = inject('emulators');
const settings = {
  client_id: 'sealvault-test-onedrive',
  auth_url: urls.authUrl,
  token_url: urls.tokenUrl,
  graph_url: urls.origin,
};
const control = emulatorControl('/__onedrive-control');
/** The emulator's quota (a free Microsoft account's 5 GB), put back after the full-drive test. */
const DEFAULT_QUOTA = 5 * 1024 ** 3;

/** A connected account: a token answer straight from the emulator (the popup is e2e's part). */
async function connect() {
  const t = await control('tokens', { client_id: settings.client_id });
  connections.save('onedrive', {
    accessToken: t.access_token as string,
    expiresAt: Date.now() + (t.expires_in as number) * 1000,
    refreshToken: t.refresh_token as string,
  });
}

setStorageConfig({ dropbox: null, googledrive: null, onedrive: settings });
const provider = createOneDriveProvider(() => settings);

/** A fresh vault with its folder, as the wizard makes it. */
async function vault(p = provider): Promise<string> {
  const vaultId = crypto.randomUUID();
  setFolder(vaultId, await p.makeFolder!(`SealVault_Contract ${vaultId.slice(0, 8)}`));
  return vaultId;
}

type LogEntry = { method: string; path: string; status: number; authorization: boolean };
const log = async () => (await control('log', undefined, 'GET')).log as LogEntry[];
/** The requests made while `run` runs. */
async function during(run: () => Promise<unknown>): Promise<LogEntry[]> {
  const before = (await log()).length;
  await run();
  return (await log()).slice(before);
}
type Item = { name: string; path: string; size: number; quickXorHash: string | null };
const items = async () => (await control('items', undefined, 'GET')).items as Item[];
const readBack = async (p: typeof provider, vaultId: string, ref: string) =>
  new Uint8Array(await new Response(await p.get(vaultId, ref)).arrayBuffer());
const same = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

beforeEach(async () => {
  await control('faults', undefined, 'DELETE');
  await connect();
});

providerContract('onedrive (emulator)', async () => {
  await connect();
  return { provider: withContentHash(provider, testHasher), vaultId: await vault() };
});

describe('OneDrive rules', () => {
  it('puts a 9 MB blob through one upload session in 320 KiB multiples, without the token on the upload URL', async () => {
    expect(FRAGMENT_BYTES % FRAGMENT_UNIT).toBe(0);
    const vaultId = await vault();
    const data = bytesOf(9 * 1000 * 1000, 5);
    const sent: number[] = [];
    const requests = await during(() =>
      provider.put(vaultId, 'nine', data.length, streamOf(data), {
        onProgress: (b) => sent.push(b),
      }),
    );
    const creates = requests.filter((r) => r.path.endsWith('/createUploadSession'));
    const fragments = requests.filter((r) => r.path.startsWith('/up/'));
    expect(creates).toHaveLength(1);
    expect(creates[0]!.authorization).toBe(true);
    expect(fragments.map((r) => [r.method, r.status, r.authorization])).toEqual([
      ['PUT', 202, false],
      ['PUT', 202, false],
      ['PUT', 201, false],
    ]);
    expect(sent).toEqual([FRAGMENT_BYTES, 2 * FRAGMENT_BYTES, data.length]);
    const [stored] = (await items()).filter((i) => i.name === 'nine');
    expect(stored).toMatchObject({ size: data.length, quickXorHash: quickXorHash(data) });
    expect(stored!.path).toMatch(/^\/Apps\/SealVault\/SealVault_Contract /);
    expect(same(await readBack(provider, vaultId, 'nine'), data)).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('after a 503 on a fragment asks the session what it holds and goes on from there', async () => {
    const vaultId = await vault();
    await control('faults', { status: 503, path: '/up/', count: 1, retryAfter: 1 });
    const data = bytesOf(FRAGMENT_BYTES + 1000, 9);
    const retrying: boolean[] = [];
    const requests = await during(() =>
      provider.put(vaultId, 'resumed', data.length, streamOf(data), {
        onRetrying: (r) => retrying.push(r),
      }),
    );
    expect(
      requests.filter((r) => r.path.startsWith('/up/')).map((r) => `${r.method} ${r.status}`),
    ).toEqual(['PUT 503', 'GET 200', 'PUT 202', 'PUT 201']);
    expect(retrying).toEqual([true, false]);
    expect(same(await readBack(provider, vaultId, 'resumed'), data)).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('waits as a 429 says and then succeeds', async () => {
    const vaultId = await vault();
    await control('faults', { status: 429, path: '/v1.0/me/drive/items/', retryAfter: 2 });
    const t0 = performance.now();
    expect(await provider.list(vaultId)).toEqual([]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1900);
    await provider.removeContainer(vaultId);
  });

  it('follows @odata.nextLink through every page of a listing', async () => {
    const paged = createOneDriveProvider(() => settings, { pageSize: 2 });
    const vaultId = await vault(paged);
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const [i, name] of names.entries())
      await paged.put(vaultId, name, i + 1, streamOf(bytesOf(i + 1)));
    let listed: { ref: string; size: number }[] = [];
    const requests = await during(async () => {
      listed = await paged.list(vaultId);
    });
    expect(requests.filter((r) => r.path.endsWith('/children'))).toHaveLength(3);
    expect(listed.sort((a, b) => a.ref.localeCompare(b.ref))).toEqual(
      names.map((ref, i) => ({ ref, size: i + 1 })),
    );
    await paged.removeContainer(vaultId);
  });

  it('fetches a download URL again once it has expired', async () => {
    const vaultId = await vault();
    const data = bytesOf(1000, 4);
    await provider.put(vaultId, 'dl', data.length, streamOf(data));
    expect(same(await readBack(provider, vaultId, 'dl'), data)).toBe(true);
    await control('expire-download-urls');
    const part = await new Response(
      await provider.get(vaultId, 'dl', { start: 10, end: 20 }),
    ).arrayBuffer();
    expect(same(new Uint8Array(part), data.subarray(10, 20))).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('renews an expired access token with the refresh token, without asking', async () => {
    const vaultId = await vault();
    const old = connections.token('onedrive')!.accessToken;
    await control('expire-tokens');
    await provider.put(vaultId, 'after-expiry', 3, streamOf(bytesOf(3)));
    expect(connections.token('onedrive')!.accessToken).not.toBe(old);
    await provider.removeContainer(vaultId);
  });

  it('forgets a revoked connection and says OneDrive is not connected', async () => {
    const vaultId = await vault();
    await control('revoke-all');
    await expect(provider.list(vaultId)).rejects.toMatchObject({
      code: 'unavailable',
      message: 'OneDrive not connected',
    });
    expect(connections.isConnected('onedrive')).toBe(false);
  });

  it('says the OneDrive is full, leaving nothing, and reports the quota', async () => {
    await connect();
    const vaultId = await vault();
    const { usedBytes } = await provider.quota();
    await control('quota', { bytes: usedBytes! + 100 });
    try {
      expect(await provider.quota()).toMatchObject({ totalBytes: usedBytes! + 100 });
      await expect(
        provider.put(vaultId, 'too-big', 1000, streamOf(bytesOf(1000))),
      ).rejects.toMatchObject({
        code: 'no_space',
        message: 'Your OneDrive is full. Free some space there or choose another storage provider.',
      });
      expect(await provider.list(vaultId)).toEqual([]);
    } finally {
      await control('quota', { bytes: DEFAULT_QUOTA });
    }
    await provider.removeContainer(vaultId);
  });

  it('says the vault folder cannot be reached when it is gone', async () => {
    const vaultId = await vault();
    await provider.removeContainer(vaultId);
    await expect(provider.prepare(vaultId)).rejects.toMatchObject({
      code: 'failed',
      message: 'Failed to access OneDrive folder',
    });
  });
});
