import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, signIn, type TestUser } from '../testing/users.ts';
import { SAFE_REQUEST_ID } from './request-id.ts';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t);
});
afterAll(() => t.close());

interface LogLine {
  msg?: string;
  requestId?: string;
  path?: string;
  status?: number;
}
/** The JSON log lines written so far that carry `id`. */
const linesOf = (id: string): LogLine[] =>
  t
    .logs()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.requestId === id);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string; requestId?: string } }).error;

describe('request ids', () => {
  it('answers every request with a fresh X-Request-Id, a different one each time', async () => {
    const ids = [];
    for (const p of ['/api/health', '/api/health', '/api/plans', '/no-such-page', '/metrics']) {
      const id = (await t.request(p)).headers.get('x-request-id') ?? '';
      expect(id, p).toMatch(UUID);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names the id in error answers, whoever made them: a route, a middleware, the error handler', async () => {
    const answers = [
      // the API's fallback route
      [await t.request('/api/does-not-exist'), 404, 'not_found'],
      // requireUser()
      [await t.request('/api/vaults'), 401, 'unauthorized'],
      // the same-origin middleware
      [
        await t.request('/api/plans', {
          method: 'POST',
          headers: { origin: 'http://evil.example' },
        }),
        403,
        'forbidden',
      ],
      // an HttpError a service threw, answered by the error handler
      [
        await t.request(`/api/vaults/${randomUUID()}`, { headers: { cookie: user.cookie } }),
        404,
        'not_found',
      ],
      // a body the route's zod schema refuses
      [
        await t.request('/api/vaults', {
          method: 'POST',
          headers: { cookie: user.cookie, 'content-type': 'application/json' },
          body: '{"nope":1}',
        }),
        400,
        'bad_request',
      ],
    ] as const;
    for (const [res, status, code] of answers) {
      expect(res.status).toBe(status);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      const error = await errorOf(res);
      expect(error.code).toBe(code);
      expect(error.requestId).toBe(id);
    }
  });

  it('writes the id on every log line of the request, its request line included', async () => {
    // Nothing else runs in a test app (no periodic jobs): every line written meanwhile is the
    // request's. A sign-in logs more than its request line (Better Auth through our logger).
    for (const send of [
      () => t.request(`/api/vaults/${randomUUID()}`, { headers: { cookie: user.cookie } }),
      () => signIn(t, user.email, 'a wrong password'),
      () => t.request('/api/health'),
    ]) {
      const before = t.logs().length;
      const res = await send();
      const id = res.headers.get('x-request-id') ?? '';
      expect(id).toMatch(UUID);
      const written = t
        .logs()
        .slice(before)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as LogLine);
      expect(written.length).toBeGreaterThan(0);
      expect(written.filter((l) => l.requestId !== id)).toEqual([]);
      expect(written.filter((l) => l.msg === 'request')).toMatchObject([{ status: res.status }]);
    }
    const sessionToken = user.cookie.split(';')[0]?.split('=')[1] ?? '-';
    expect(t.logs()).not.toContain(sessionToken);
  });

  it('keeps a safe id sent by a proxy in front: header, error answer and logs', async () => {
    for (const sent of ['abc-123.DEF_4', 'a', '0'.repeat(64), randomUUID()]) {
      const res = await t.request('/api/nope', { headers: { 'x-request-id': sent } });
      expect(res.headers.get('x-request-id')).toBe(sent);
      expect((await errorOf(res)).requestId).toBe(sent);
      expect(linesOf(sent).some((l) => l.msg === 'request' && l.path === '/api/nope')).toBe(true);
    }
  });

  it('replaces an unsafe or oversized id with a fresh one, never echoing or logging it', async () => {
    for (const sent of [
      'x'.repeat(65),
      'has space',
      'quote"d',
      'semi;colon',
      'key=value',
      'slash/es',
      '%0d%0aSet-Cookie',
      'ünïcode',
      '<script>',
    ]) {
      const res = await t.request('/api/nope', { headers: { 'x-request-id': sent } });
      const id = res.headers.get('x-request-id') ?? '';
      expect(id, sent).toMatch(UUID);
      expect((await errorOf(res)).requestId, sent).toBe(id);
      expect(t.logs(), sent).not.toContain(sent);
    }
    expect(SAFE_REQUEST_ID.test('')).toBe(false);
  });

  it('adds the header to answers the app did not build itself (Better Auth, tus)', async () => {
    const session = await t.request('/api/auth/get-session', { headers: { cookie: user.cookie } });
    expect(session.status).toBe(200);
    expect(session.headers.get('x-request-id')).toMatch(UUID);
    const tus = await t.request('/api/uploads', { method: 'OPTIONS' });
    expect(tus.headers.get('x-request-id')).toMatch(UUID);
  });
});
