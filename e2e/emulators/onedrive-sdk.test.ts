// The OneDrive emulator driven by Microsoft's own JS client, @microsoft/microsoft-graph-client, to
// keep it honest: what the SDK sends must be understood, what the emulator answers must parse
// (PageIterator follows @odata.nextLink, LargeFileUploadTask follows nextExpectedRanges and sends
// no token to the upload URL, GraphError carries Graph's error code, RetryHandler honours
// Retry-After). The SDK speaks only https (it recognises hosts in https URLs only), so its last
// middleware is a TLS shim: it sends the request over http with X-Forwarded-Proto: https, and the
// emulator answers its absolute URLs in https, as it would behind a TLS terminator.
import {
  AuthenticationHandler,
  Client,
  FileUpload,
  GraphError,
  LargeFileUploadTask,
  PageIterator,
  RetryHandler,
  RetryHandlerOptions,
  type Context,
  type Middleware,
  type PageCollection,
} from '@microsoft/microsoft-graph-client';
import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOneDriveEmulator, type OneDriveEmulator } from './onedrive.ts';
import { quickXorHash } from './quickxor.ts';

let emu: OneDriveEmulator;
let client: Client;
let accessToken = '';

beforeAll(async () => {
  emu = await startOneDriveEmulator();
});
afterAll(async () => {
  await emu.stop();
});

async function control<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emu.origin}/__emulator/${route}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, `control ${method} ${route}`).toBe(true);
  return (await res.json()) as T;
}

/** The last middleware: https in the SDK, http on the wire (see the header). */
class TlsShim implements Middleware {
  async execute(context: Context) {
    const url = typeof context.request === 'string' ? context.request : context.request.url;
    const headers = new Headers(context.options?.headers);
    headers.set('X-Forwarded-Proto', 'https');
    context.response = await fetch(url.replace(/^https:/, 'http:'), {
      ...(context.options as RequestInit),
      headers,
    });
  }
}

const https = (origin: string) => origin.replace(/^http:/, 'https:');

beforeEach(async () => {
  await control('POST', 'reset');
  accessToken = (await control<{ access_token: string }>('POST', 'tokens')).access_token;
  client = Client.initWithMiddleware({
    baseUrl: https(emu.origin),
    customHosts: new Set(['127.0.0.1']),
    middleware: [
      new AuthenticationHandler({ getAccessToken: () => Promise.resolve(accessToken) }),
      new RetryHandler(new RetryHandlerOptions(1, 2)),
      new TlsShim(),
    ],
  });
});

interface DriveItem {
  id: string;
  name: string;
  size: number;
  folder?: { childCount: number };
  file?: { mimeType: string; hashes: { quickXorHash: string } };
  parentReference?: { id: string; path: string; driveId: string };
  specialFolder?: { name: string };
  '@microsoft.graph.downloadUrl'?: string;
}

const appRoot = () => client.api('/me/drive/special/approot').get() as Promise<DriveItem>;

async function graphError(p: Promise<unknown>): Promise<GraphError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GraphError);
  return error as GraphError;
}

function bytes(n: number) {
  return crypto.randomBytes(n);
}

describe('with @microsoft/microsoft-graph-client', () => {
  it('reads the drive and its quota, then the quota set by a test', async () => {
    const drive = (await client.api('/me/drive').get()) as {
      driveType: string;
      quota: { total: number; used: number; remaining: number; state: string };
    };
    expect(drive.driveType).toBe('personal');
    expect(drive.quota).toMatchObject({ total: 5 * 1024 ** 3, used: 0, state: 'normal' });
    await control('POST', 'quota', { bytes: 1000 });
    const after = (await client.api('/me/drive').get()) as typeof drive;
    expect(after.quota).toMatchObject({ total: 1000, used: 0, remaining: 1000 });
  });

  it('creates the app folder under /Apps on first use, and finds it again by the same id', async () => {
    const root = await appRoot();
    expect(root).toMatchObject({ name: 'SealVault', specialFolder: { name: 'approot' } });
    expect(root.parentReference?.path).toBe('/drive/root:/Apps');
    expect((await appRoot()).id).toBe(root.id);
  });

  it('creates a folder, and answers nameAlreadyExists to a second one of the same name in any case', async () => {
    const root = await appRoot();
    const created = (await client.api(`/me/drive/items/${root.id}/children`).post({
      name: 'vault-1',
      folder: {},
      '@microsoft.graph.conflictBehavior': 'fail',
    })) as DriveItem;
    expect(created).toMatchObject({ name: 'vault-1', folder: { childCount: 0 } });
    expect(created.parentReference?.id).toBe(root.id);
    const error = await graphError(
      client
        .api(`/me/drive/items/${root.id}/children`)
        .post({ name: 'VAULT-1', folder: {}, '@microsoft.graph.conflictBehavior': 'fail' }),
    );
    expect(error.statusCode).toBe(409);
    expect(error.code).toBe('nameAlreadyExists');
  });

  it('lists children page by page: PageIterator follows @odata.nextLink to the end', async () => {
    const root = await appRoot();
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    for (const name of names.toReversed()) {
      await client.api(`/me/drive/items/${root.id}/children`).post({ name, folder: {} });
    }
    const first = (await client
      .api(`/me/drive/items/${root.id}/children`)
      .top(3)
      .get()) as PageCollection;
    expect(first.value).toHaveLength(3);
    expect(first['@odata.nextLink']).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1\.0\/me\/drive\//);
    const seen: string[] = [];
    await new PageIterator(client, first, (item: DriveItem) => {
      seen.push(item.name);
      return true;
    }).iterate();
    expect(seen).toEqual(names);
  });

  it('uploads a small file in one PUT, with the quickXorHash of its bytes', async () => {
    const root = await appRoot();
    const data = bytes(5000);
    const item = (await client
      .api(`/me/drive/items/${root.id}:/small.bin:/content`)
      .put(data)) as DriveItem;
    expect(item).toMatchObject({ name: 'small.bin', size: 5000 });
    expect(item.file?.hashes.quickXorHash).toBe(quickXorHash(data));
  });

  it('uploads in 640 KiB fragments with LargeFileUploadTask, sending no token to the upload URL', async () => {
    const root = await appRoot();
    const data = bytes(640 * 1024 * 2 + 12_345);
    const session = await LargeFileUploadTask.createUploadSession(
      client,
      `/me/drive/items/${root.id}:/big.bin:/createUploadSession`,
      { item: { '@microsoft.graph.conflictBehavior': 'fail' } },
    );
    expect(new URL(session.url).hostname).toBe('localhost');
    const task = new LargeFileUploadTask(
      client,
      new FileUpload(data, 'big.bin', data.length),
      session,
      { rangeSize: 640 * 1024 },
    );
    const result = await task.upload();
    const item = result.responseBody as DriveItem;
    expect(item).toMatchObject({ name: 'big.bin', size: data.length });
    expect(item.file?.hashes.quickXorHash).toBe(quickXorHash(data));
    const { log } = await control<{
      log: { method: string; path: string; status: number; authorization: boolean }[];
    }>('GET', 'log');
    const puts = log.filter((l) => l.method === 'PUT' && l.path.startsWith('/up/'));
    expect(puts.map((l) => [l.status, l.authorization])).toEqual([
      [202, false],
      [202, false],
      [201, false],
    ]);
    const { items } = await control<{ items: { name: string; sha256: string | null }[] }>(
      'GET',
      'items',
    );
    const sha = crypto.createHash('sha256').update(data).digest('hex');
    expect(items.find((i) => i.name === 'big.bin')?.sha256).toBe(sha);
  });

  it('renames a file, finds it by its new path, and downloads a Range through its downloadUrl', async () => {
    const root = await appRoot();
    const data = bytes(4096);
    const uploaded = (await client
      .api(`/me/drive/items/${root.id}:/old.bin:/content`)
      .put(data)) as DriveItem;
    const renamed = (await client
      .api(`/me/drive/items/${uploaded.id}`)
      .patch({ name: 'new.bin' })) as DriveItem;
    expect(renamed).toMatchObject({ id: uploaded.id, name: 'new.bin' });
    const byPath = (await client.api(`/me/drive/items/${root.id}:/new.bin:`).get()) as DriveItem;
    expect(byPath.id).toBe(uploaded.id);
    const downloadUrl = byPath['@microsoft.graph.downloadUrl'] ?? '';
    expect(new URL(downloadUrl).hostname).toBe('localhost');
    // Pre-authenticated: fetched with no token (over http: see the TLS shim).
    const res = await fetch(downloadUrl.replace(/^https:/, 'http:'), {
      headers: { Range: 'bytes=100-1123' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('Content-Range')).toBe('bytes 100-1123/4096');
    expect(Buffer.from(await res.arrayBuffer()).equals(data.subarray(100, 1124))).toBe(true);
  });

  it('deletes an item (204), after which it is itemNotFound', async () => {
    const root = await appRoot();
    const folder = (await client
      .api(`/me/drive/items/${root.id}/children`)
      .post({ name: 'gone', folder: {} })) as DriveItem;
    await client.api(`/me/drive/items/${folder.id}`).delete();
    const error = await graphError(client.api(`/me/drive/items/${folder.id}`).get());
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe('itemNotFound');
  });

  it('is throttled with 429 and Retry-After, which RetryHandler waits out', async () => {
    await control('POST', 'faults', { status: 429, retryAfter: 1, count: 1 });
    const started = Date.now();
    const drive = (await client.api('/me/drive').get()) as { id: string };
    expect(drive.id).toBeTruthy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const { log } = await control<{ log: { path: string; status: number }[] }>('GET', 'log');
    expect(log.filter((l) => l.path === '/v1.0/me/drive').map((l) => l.status)).toEqual([429, 200]);
  });
});
