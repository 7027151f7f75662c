// The Google Drive provider in Chromium against the Google Drive emulator
// (cloud/emulators.setup.ts): the provider contract, and the rules of Drive's API the provider
// must follow (multipart up to 5 MiB and a resumable session beyond, going on from what Drive
// holds after a dropped connection, 429 with Retry-After, a revoked token disconnecting, list
// paging, a full Drive, a damaged copy caught by Drive's md5Checksum).
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { setStorageConfig } from '../cloud/config.ts';
import { connections } from '../cloud/connections.ts';
import { setFolder } from '../cloud/folders.ts';
import { emulatorControl } from '../cloud/emulator.testkit.ts';
import { bytesOf, providerContract, streamOf, testHasher } from '../contract.testkit.ts';
import { contentHashMismatch, withContentHash } from '../hashing.ts';
import { CHUNK_BYTES, createDriveProvider, MULTIPART_MAX } from './drive.ts';

const { googledrive: urls } = inject('emulators');
const settings = {
  client_id: 'sealvault-test.apps.googleusercontent.com',
  oauth_url: urls.oauthUrl,
  revoke_url: urls.revokeUrl,
  api_url: urls.apiUrl,
};
const control = emulatorControl('/__drive-control');

/** A connected account: a token straight from the emulator (the popup is e2e's part). */
async function connect() {
  const t = await control('tokens', { clientId: settings.client_id });
  connections.save('googledrive', {
    access_token: t.access_token as string,
    expires_at: Date.now() + (t.expires_in as number) * 1000,
  });
}

setStorageConfig({ dropbox: null, googledrive: settings, onedrive: null });
const provider = createDriveProvider(() => settings);

/** A fresh vault with its folder, as the wizard makes it. */
async function vault(): Promise<string> {
  const vaultId = crypto.randomUUID();
  setFolder(vaultId, await provider.makeFolder!(`SealVault_Contract ${vaultId.slice(0, 8)}`));
  return vaultId;
}

const stats = async () =>
  (await control('stats', undefined, 'GET')).requests as Record<string, number>;
/** Requests per endpoint made while `run` runs. */
async function counting(run: () => Promise<unknown>) {
  const before = await stats();
  await run();
  const after = await stats();
  return (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
}
/** What the emulator stores under `name` (its SHA-256 computed by the emulator). */
async function stored(name: string) {
  const { files } = (await control('files', undefined, 'GET')) as {
    files: { name: string; size?: string; sha256: string | null }[];
  };
  return files.filter((f) => f.name === name);
}
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
const readBack = async (vaultId: string, ref: string) =>
  new Uint8Array(await new Response(await provider.get(vaultId, ref)).arrayBuffer());
const same = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

beforeEach(async () => {
  await control('faults', undefined, 'DELETE');
  await connect();
});

providerContract('googledrive (emulator)', async () => {
  await connect();
  return { provider: withContentHash(provider, testHasher), vaultId: await vault() };
});

describe('Google Drive rules', () => {
  it('sends up to 5 MiB in one multipart request, without a content hash', async () => {
    const vaultId = await vault();
    const data = bytesOf(MULTIPART_MAX, 4);
    let answer: unknown;
    const n = await counting(async () => {
      answer = await provider.put(vaultId, 'five', data.length, streamOf(data));
    });
    expect(n('files.create(multipart)')).toBe(1);
    expect(n('files.create(resumable)')).toBe(0);
    // Drive's sha256Checksum is of the whole file, not the vault's block hash: never passed on.
    expect(answer).toEqual({ ref: 'five', size: data.length });
    expect((await stored('five')).map((f) => f.sha256)).toEqual([await sha256(data)]);
    await provider.removeContainer(vaultId);
  });

  it('uploads a 9 MB blob through one resumable session in 8 MiB chunks', async () => {
    const vaultId = await vault();
    const data = bytesOf(9 * 1000 * 1000, 5);
    const sent: number[] = [];
    const n = await counting(() =>
      provider.put(vaultId, 'nine', data.length, streamOf(data), {
        onProgress: (b) => sent.push(b),
      }),
    );
    expect(n('files.create(resumable)')).toBe(1);
    expect(n('files.create(multipart)')).toBe(0);
    expect(n('upload.chunk')).toBe(2);
    expect(sent).toEqual([CHUNK_BYTES, data.length]);
    expect((await stored('nine')).map((f) => f.sha256)).toEqual([await sha256(data)]);
    expect(same(await readBack(vaultId, 'nine'), data)).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('goes on from what Drive holds after a chunk loses its connection', async () => {
    const vaultId = await vault();
    // The first chunk's connection dies after 300 KiB (Drive keeps 256 KiB of it), and so does
    // the next PUT: Chromium may send a request again itself once when a reused connection dies,
    // and the provider must see the failure either way.
    await control('faults', {
      pathPrefix: '/upload/drive/v3/files',
      method: 'PUT',
      count: 2,
      drop: true,
      dropAfterBytes: 300 * 1024,
    });
    const data = bytesOf(CHUNK_BYTES + 2 * 1024 * 1024, 9);
    const retrying: boolean[] = [];
    const n = await counting(() =>
      provider.put(vaultId, 'resumed', data.length, streamOf(data), {
        onRetrying: (r) => retrying.push(r),
      }),
    );
    // Two dropped PUTs, the status query (Drive held 256 KiB), the rest of the first chunk from
    // there, and the second chunk.
    expect(n('upload.chunk')).toBe(5);
    expect(retrying[0]).toBe(true);
    expect(retrying.at(-1)).toBe(false);
    expect(n('files.create(resumable)')).toBe(1);
    expect(same(await readBack(vaultId, 'resumed'), data)).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('cancels the upload session when a put is aborted', async () => {
    const vaultId = await vault();
    const ctrl = new AbortController();
    const data = bytesOf(10 * 1024 * 1024, 2);
    let result: unknown;
    const n = await counting(async () => {
      result = await provider
        .put(vaultId, 'cancelled', data.length, streamOf(data), {
          signal: ctrl.signal,
          onProgress: () => ctrl.abort(),
        })
        .catch((e: unknown) => e);
    });
    expect(result).toMatchObject({ name: 'StorageError', code: 'aborted' });
    expect(n('upload.cancel')).toBe(1);
    expect(await stored('cancelled')).toEqual([]);
    await provider.removeContainer(vaultId);
  });

  it('refuses to store a second file under a name the folder already has', async () => {
    const vaultId = await vault();
    const first = bytesOf(10, 1);
    await provider.put(vaultId, 'twice', first.length, streamOf(first));
    await expect(
      provider.put(vaultId, 'twice', 20, streamOf(bytesOf(20, 2))),
    ).rejects.toMatchObject({ code: 'failed', message: 'Failed to upload to Google Drive' });
    expect(await provider.list(vaultId)).toEqual([{ ref: 'twice', size: 10 }]);
    expect(same(await readBack(vaultId, 'twice'), first)).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('waits as a 429 says and then succeeds', async () => {
    const vaultId = await vault();
    await control('faults', {
      pathPrefix: '/drive/v3/files',
      method: 'GET',
      status: 429,
      retryAfterS: 2, // longer than the provider's own first back-off (1 s)
    });
    const t0 = performance.now();
    expect(await provider.list(vaultId)).toEqual([]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1900);
    await provider.removeContainer(vaultId);
  });

  it('forgets a revoked connection and says Google Drive is not connected', async () => {
    const vaultId = await vault();
    await control('tokens/revoke');
    await expect(provider.list(vaultId)).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Google Drive not connected',
    });
    expect(connections.isConnected('googledrive')).toBe(false);
    // Without a token nothing is asked of Drive.
    const n = await counting(() => provider.stat(vaultId, 'x').catch(() => undefined));
    expect(n('files.list')).toBe(0);
  });

  it('follows nextPageToken through every page of a listing', async () => {
    const paged = createDriveProvider(() => settings, { pageSize: 2 });
    const vaultId = await vault();
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const [i, name] of names.entries())
      await paged.put(vaultId, name, i + 1, streamOf(bytesOf(i + 1)));
    let listed: { ref: string; size: number }[] = [];
    const n = await counting(async () => {
      listed = await paged.list(vaultId);
    });
    expect(n('files.list')).toBe(3);
    expect(listed.sort((a, b) => a.ref.localeCompare(b.ref))).toEqual(
      names.map((ref, i) => ({ ref, size: i + 1 })),
    );
    await paged.removeContainer(vaultId);
  });

  it("holds Drive's md5Checksum to the bytes sent: a damaged copy is removed and the put fails", async () => {
    const vaultId = await vault();
    for (const size of [1000, 9 * 1000 * 1000]) {
      await control('corrupt-next', { count: 1 });
      await expect(
        provider.put(vaultId, `damaged-${size}`, size, streamOf(bytesOf(size, 9))),
      ).rejects.toMatchObject({ code: 'failed', message: contentHashMismatch });
      expect(await stored(`damaged-${size}`)).toEqual([]);
    }
    // The next copy is kept whole, and passes.
    const data = bytesOf(1000, 3);
    await provider.put(vaultId, 'whole', data.length, streamOf(data));
    expect(same(await readBack(vaultId, 'whole'), data)).toBe(true);
    await provider.removeContainer(vaultId);
  });

  it('says the Drive is full, for a multipart upload and for a session, leaving nothing', async () => {
    const vaultId = await vault();
    await control('quota', { bytes: 0 });
    try {
      expect(await provider.quota()).toMatchObject({ totalBytes: 0 });
      for (const size of [10, 9 * 1000 * 1000]) {
        await expect(
          provider.put(vaultId, `full-${size}`, size, streamOf(bytesOf(size))),
        ).rejects.toMatchObject({
          code: 'no_space',
          message:
            'Your Google Drive is full. Free some space there or choose another storage provider.',
        });
      }
      expect(await provider.list(vaultId)).toEqual([]);
      await control('quota', { bytes: null });
      expect(await provider.quota()).toMatchObject({ totalBytes: null });
    } finally {
      await control('quota', { bytes: 15 * 1024 ** 3 });
    }
    const before = (await provider.quota()).usedBytes!;
    await provider.put(vaultId, 'room', 7, streamOf(bytesOf(7)));
    expect(await provider.quota()).toEqual({ usedBytes: before + 7, totalBytes: 15 * 1024 ** 3 });
    await provider.removeContainer(vaultId);
  });

  it('says the vault folder cannot be reached when it is gone', async () => {
    const vaultId = await vault();
    await provider.removeContainer(vaultId);
    await expect(provider.prepare(vaultId)).rejects.toMatchObject({
      code: 'failed',
      message: 'Failed to access Google Drive folder',
    });
  });
});
