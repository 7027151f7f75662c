// The tus endpoint over a real socket (@hono/node-server), where a dropped connection is a real
// one: the part that arrived is kept, HEAD reports it, and the rest completes the upload; unless
// the PATCH declared its checksum, which makes it all or nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import {
  fakeCiphertext,
  metadataHeader,
  uploadChecksum,
  uploadMetadata,
  userWithVault,
} from '../testing/files.ts';

let t: TestApp;
let server: ServerType;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

/** Sends `part` as the start of a PATCH body that claims more, then cuts the connection. */
function patchAndDrop(url: string, headers: Record<string, string>, part: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'PATCH', headers });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    req.write(part, () => setTimeout(() => req.destroy(), 100));
  });
}

it('keeps the bytes of a dropped PATCH and resumes from the offset HEAD reports', async () => {
  const { user, vaultId } = await userWithVault(t);
  const bytes = fakeCiphertext(2_000_000);
  const meta = uploadMetadata(vaultId, bytes);
  const common = { 'tus-resumable': '1.0.0', cookie: user.cookie, origin: t.config.publicUrl };
  const created = await fetch(`${base}/api/uploads`, {
    method: 'POST',
    headers: {
      ...common,
      'upload-length': String(bytes.length),
      'upload-metadata': metadataHeader({ ...meta }),
    },
  });
  expect(created.status).toBe(201);
  const url = `${base}${created.headers.get('location')}`;

  await patchAndDrop(
    url,
    {
      ...common,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
      'content-length': String(bytes.length),
    },
    bytes.subarray(0, 700_000),
  );

  let offset = 0;
  for (let i = 0; i < 50 && offset === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const head = await fetch(url, { method: 'HEAD', headers: common });
    expect(head.status).toBe(200);
    offset = Number(head.headers.get('upload-offset'));
  }
  expect(offset).toBeGreaterThan(0);
  expect(offset).toBeLessThanOrEqual(700_000);

  const rest = await fetch(url, {
    method: 'PATCH',
    headers: {
      ...common,
      'content-type': 'application/offset+octet-stream',
      'upload-offset': String(offset),
    },
    body: bytes.subarray(offset),
  });
  expect(rest.status).toBe(204);

  const contentUrl = `${base}/api/vaults/${vaultId}/files/${meta.fileId}/content`;
  const whole = await fetch(contentUrl, { headers: { cookie: user.cookie } });
  expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
  const part = await fetch(contentUrl, {
    headers: { cookie: user.cookie, range: 'bytes=262100-262300' },
  });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(262_100, 262_301))).toBe(true);
});

it('keeps nothing of a dropped PATCH that declared its checksum: it is sent again whole', async () => {
  const { user, vaultId } = await userWithVault(t);
  const bytes = fakeCiphertext(2_000_000);
  const meta = uploadMetadata(vaultId, bytes);
  const common = { 'tus-resumable': '1.0.0', cookie: user.cookie, origin: t.config.publicUrl };
  const created = await fetch(`${base}/api/uploads`, {
    method: 'POST',
    headers: {
      ...common,
      'upload-length': String(bytes.length),
      'upload-metadata': metadataHeader({ ...meta }),
    },
  });
  expect(created.status).toBe(201);
  const url = `${base}${created.headers.get('location')}`;
  const patchHeaders = {
    ...common,
    'content-type': 'application/offset+octet-stream',
    'upload-offset': '0',
    ...uploadChecksum(bytes),
  };

  // Waits for the store's write of the dropped body to settle, however it ends.
  const { uploads } = t.files;
  const writes: Promise<unknown>[] = [];
  const write = uploads.write.bind(uploads);
  uploads.write = (...args) => {
    const written = write(...args);
    writes.push(written);
    return written;
  };
  try {
    await patchAndDrop(
      url,
      { ...patchHeaders, 'content-length': String(bytes.length) },
      bytes.subarray(0, 700_000),
    );
    for (let i = 0; i < 100 && writes.length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(writes).toHaveLength(1);
    await Promise.allSettled(writes);
  } finally {
    uploads.write = write;
  }

  const head = await fetch(url, { method: 'HEAD', headers: common });
  expect(head.headers.get('upload-offset')).toBe('0');
  const again = await fetch(url, { method: 'PATCH', headers: patchHeaders, body: bytes });
  expect(again.status).toBe(204);
  const contentUrl = `${base}/api/vaults/${vaultId}/files/${meta.fileId}/content`;
  const whole = await fetch(contentUrl, { headers: { cookie: user.cookie } });
  expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
});
