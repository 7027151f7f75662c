// [Note: early session check]: the page's first session check takes the early answer; every
// other request, and every later check, goes to the server.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const SESSION = 'http://localhost/api/auth/get-session';
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  vi.resetModules();
  vi.stubGlobal('location', new URL('http://localhost/dashboard'));
  let n = 0;
  fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(Response.json({ n: ++n })));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const load = () => import('./sessionPrefetch.ts');
const body = async (r: Promise<Response>) => ((await (await r).json()) as { n: number }).n;

it('answers the first session check with the request sent at page load, once', async () => {
  const m = await load();
  m.startSessionCheck('/dashboard');
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(await body(m.sessionFetch(SESSION, { method: 'GET' }))).toBe(1);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  // A later check (after signing in or out) asks the server.
  expect(await body(m.sessionFetch(SESSION, { method: 'GET' }))).toBe(2);
  expect(fetchMock).toHaveBeenCalledTimes(2);
});

it('sends nothing early on a public page', async () => {
  const m = await load();
  m.startSessionCheck('/auth');
  m.startSessionCheck('/');
  expect(fetchMock).not.toHaveBeenCalled();
  expect(await body(m.sessionFetch(SESSION))).toBe(1);
});

it('passes other requests through and keeps the early answer for the check', async () => {
  const m = await load();
  m.startSessionCheck('/vault/v1');
  await m.sessionFetch('http://localhost/api/auth/sign-out', { method: 'POST' });
  await m.sessionFetch(`${SESSION}?disableCookieCache=true`);
  await m.sessionFetch(SESSION, { method: 'POST' });
  expect(fetchMock).toHaveBeenCalledTimes(4);
  expect(await body(m.sessionFetch(new URL(SESSION)))).toBe(1);
});

it('does not use an answer older than its maximum age', async () => {
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now() - m.EARLY_SESSION_MAX_AGE_MS - 1);
  expect(await body(m.sessionFetch(SESSION))).toBe(2);
});

it('asks again when the early request failed', async () => {
  fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
  const m = await load();
  m.startSessionCheck('/dashboard');
  expect(await body(m.sessionFetch(SESSION))).toBe(1);
  expect(fetchMock).toHaveBeenCalledTimes(2);
});
