// The body limit of every route family (issue 15, item 2): a 64 MiB body gets 413 in the API's
// error shape before a handler reads it. The bodies here are streams that count what was pulled
// from them, so "nothing was buffered" is asserted directly, not inferred from memory figures.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import {
  BODY_LIMIT_BYTES,
  BODY_TOO_LARGE,
  bodyLimitOf,
  MANIFEST_BODY_LIMIT_BYTES,
  ROTATION_BODY_LIMIT_BYTES,
} from './body-limit.ts';

let t: TestApp;
let u: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  u = await createUser(t);
});
afterAll(() => t.close());

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A lazily produced body of `total` bytes that records how many bytes a reader pulled. */
function countingBody(total: number) {
  let pulled = 0;
  const chunk = new Uint8Array(CHUNK).fill(0x7b);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) {
          controller.close();
          return;
        }
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

const vaultId = randomUUID();
const routes: [method: string, path: string][] = [
  ['POST', '/api/auth/sign-in/email'],
  ['POST', '/api/auth/sign-up/email'],
  ['POST', '/api/auth/verify-password'],
  ['POST', '/api/vaults'],
  ['PATCH', `/api/vaults/${vaultId}`],
  ['POST', `/api/vaults/${vaultId}/secrets`],
  ['PUT', `/api/vaults/${vaultId}/secrets/${randomUUID()}`],
  ['PATCH', `/api/vaults/${vaultId}/files/${randomUUID()}`],
  ['PATCH', `/api/vaults/${vaultId}/visibility`],
  ['PATCH', '/api/me'],
  ['DELETE', '/api/me'],
  ['POST', '/api/subscription/admin-upgrade'],
  ['POST', '/api/payments/checkout'],
  ['POST', '/api/payments/ipn'],
  ['POST', '/'],
];

async function send(method: string, path: string, total: number, declareLength: boolean) {
  const body = countingBody(total);
  const headers: Record<string, string> = {
    cookie: u.cookie,
    'content-type': path.endsWith('/ipn')
      ? 'application/x-www-form-urlencoded'
      : 'application/json',
  };
  if (declareLength) headers['content-length'] = String(total);
  const res = await t.request(path, {
    method,
    headers,
    body: body.stream,
    duplex: 'half',
  });
  return { res, pulled: body.pulled() };
}

describe('body limit', () => {
  it.each(routes)(
    'refuses a declared 64 MiB body to %s %s with 413 without reading it',
    async (method, path) => {
      const { res, pulled } = await send(method, path, 64 * MiB, true);
      expect(res.status).toBe(413);
      expect(errorBodySchema.parse(await res.json())).toEqual({
        error: { code: 'payload_too_large', message: BODY_TOO_LARGE },
      });
      expect(pulled).toBe(0);
    },
  );

  it.each(routes)(
    'refuses a chunked 64 MiB body to %s %s with 413 after reading at most the limit',
    async (method, path) => {
      const { res, pulled } = await send(method, path, 64 * MiB, false);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'payload_too_large',
      );
      expect(pulled).toBeLessThanOrEqual(BODY_LIMIT_BYTES + CHUNK);
    },
  );

  it('keeps memory flat under repeated 64 MiB bodies (generous margin)', async () => {
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 8; i++) {
      expect((await send('POST', '/api/auth/sign-in/email', 64 * MiB, false)).res.status).toBe(413);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * MiB);
  });

  it('lets a body under the limit through to the handler', async () => {
    const name = 'x'.repeat(BODY_LIMIT_BYTES - 100);
    const res = await t.request('/api/me', {
      method: 'PATCH',
      headers: { cookie: u.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: name }),
    });
    expect(res.status).toBe(400); // the handler's own check (name too long), not the limit
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  it('gives the manifest write 8 MiB and the key rotation 64 MiB, and reads no further', async () => {
    for (const [method, path, limit] of [
      ['PUT', `/api/vaults/${vaultId}/manifest`, MANIFEST_BODY_LIMIT_BYTES],
      ['POST', `/api/vaults/${vaultId}/rotate`, ROTATION_BODY_LIMIT_BYTES],
    ] as const) {
      expect(bodyLimitOf(method, path)).toBe(limit);
      const declared = await send(method, path, limit + 1, true);
      expect(declared.res.status, `${method} ${path}`).toBe(413);
      expect(declared.pulled).toBe(0);
      const chunked = await send(method, path, limit + 4 * CHUNK, false);
      expect(chunked.res.status, `${method} ${path}`).toBe(413);
      expect(chunked.pulled).toBeGreaterThan(BODY_LIMIT_BYTES);
      expect(chunked.pulled).toBeLessThanOrEqual(limit + CHUNK);
    }
    // Only those two: the vault's other routes, and other methods on these paths, keep 1 MiB.
    expect(bodyLimitOf('POST', `/api/vaults/${vaultId}/manifest`)).toBe(BODY_LIMIT_BYTES);
    expect(bodyLimitOf('PUT', `/api/vaults/${vaultId}/key`)).toBe(BODY_LIMIT_BYTES);
    expect(bodyLimitOf('POST', `/api/vaults/${vaultId}/rotate/x`)).toBe(BODY_LIMIT_BYTES);
  });

  it('leaves the tus upload bodies to their own limits', async () => {
    for (const [method, path] of [
      ['PATCH', `/api/uploads/${randomUUID()}`],
      ['POST', '/api/uploads'],
    ] as const) {
      const res = await t.request(path, {
        method,
        headers: {
          cookie: u.cookie,
          'tus-resumable': '1.0.0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(64 * MiB),
        },
        body: new Uint8Array(0),
      });
      expect(res.status, `${method} ${path}`).not.toBe(413);
    }
  });
});
