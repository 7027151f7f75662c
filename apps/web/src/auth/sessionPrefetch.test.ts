// [Note: early session check]: the page's first session check, and at /dashboard the first vault
// list and limits reads, take the early answers; every other request, and every later one, goes
// to the server.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const SESSION = 'http://localhost/api/auth/get-session';
const VAULTS = 'http://localhost/api/vaults';
const LIMITS = 'http://localhost/api/limits';
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  vi.resetModules();
  vi.stubGlobal('location', new URL('http://localhost/dashboard'));
  let n = 0;
  fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(Response.json({ n: ++n })));
  vi.stubGlobal('fetch', fetchMock);
});
const urlOf = (input: RequestInfo | URL) => (input instanceof Request ? input.url : String(input));
/** The paths fetched so far, in order. */
const sent = () =>
  fetchMock.mock.calls.map(([input]) => new URL(urlOf(input), 'http://localhost').pathname);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const load = () => import('./sessionPrefetch.ts');
const body = async (r: Promise<Response>) => ((await (await r).json()) as { n: number }).n;

it('answers the first session check with the request sent at page load, once', async () => {
  const m = await load();
  m.startSessionCheck('/subscription');
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(await body(m.sessionFetch(SESSION, { method: 'GET' }))).toBe(1);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  // A later check (after signing in or out) asks the server.
  expect(await body(m.sessionFetch(SESSION, { method: 'GET' }))).toBe(2);
  expect(fetchMock).toHaveBeenCalledTimes(2);
});

it('sends only the session check early at a signed-in page other than the vault list', async () => {
  const m = await load();
  m.startSessionCheck('/vault/v1', Date.now(), '');
  expect(sent()).toEqual(['/api/auth/get-session']);
  vi.resetModules();
  const other = await load();
  other.startSessionCheck('/dashboard', Date.now(), '?view=settings');
  expect(sent()).toEqual(['/api/auth/get-session', '/api/auth/get-session']);
  expect(await body(other.earlyFetch(VAULTS))).toBe(3);
});

it('sends nothing early on a public page', async () => {
  const m = await load();
  m.startSessionCheck('/auth');
  m.startSessionCheck('/');
  m.startSessionCheck('/dashboards', Date.now(), '');
  expect(fetchMock).not.toHaveBeenCalled();
  expect(await body(m.sessionFetch(SESSION))).toBe(1);
});

it('on a public page sends the first session check once the first screen is drawn, later ones at once', async () => {
  const m = await load();
  m.startSessionCheck('/auth');
  const first = m.sessionFetch(SESSION);
  await new Promise((r) => setTimeout(r, 20));
  expect(fetchMock).not.toHaveBeenCalled();
  m.firstScreenCommitted();
  expect(await body(first)).toBe(1);
  const second = m.sessionFetch(SESSION);
  expect(fetchMock).toHaveBeenCalledTimes(2);
  expect(await body(second)).toBe(2);
});

it('passes other requests through and keeps the early answer for the check', async () => {
  const m = await load();
  m.startSessionCheck('/vault/v1', Date.now(), '');
  await m.sessionFetch('http://localhost/api/auth/sign-out', { method: 'POST' });
  await m.sessionFetch(`${SESSION}?disableCookieCache=true`);
  await m.sessionFetch(SESSION, { method: 'POST' });
  expect(fetchMock).toHaveBeenCalledTimes(4);
  expect(await body(m.sessionFetch(new URL(SESSION)))).toBe(1);
});

it('does not use an answer older than its maximum age', async () => {
  const m = await load();
  m.startSessionCheck('/admin', Date.now() - m.EARLY_ANSWER_MAX_AGE_MS - 1);
  expect(await body(m.sessionFetch(SESSION))).toBe(2);
});

it('asks again when the early request failed', async () => {
  fetchMock.mockImplementationOnce(() => Promise.reject(new TypeError('offline')));
  const m = await load();
  m.startSessionCheck('/subscription');
  expect(await body(m.sessionFetch(SESSION))).toBe(1);
  expect(fetchMock).toHaveBeenCalledTimes(2);
});

// The dashboard's vault list and limits ([Note: early session check]): fetchMock answers the
// session check with { n: 1 }, a session as far as the module can tell.
it('at the vault list sends its two reads with the session check; the first of each takes it', async () => {
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now(), '');
  expect(sent()).toEqual(['/api/auth/get-session', '/api/vaults', '/api/limits']);
  expect(await body(m.sessionFetch(SESSION))).toBe(1);
  const init = { credentials: 'same-origin', headers: { accept: 'application/json' } } as const;
  expect(await body(m.earlyFetch('/api/limits', init))).toBe(3);
  expect(await body(m.earlyFetch(VAULTS, init))).toBe(2);
  expect(fetchMock).toHaveBeenCalledTimes(3);
  // Later queries (a refetch, after a change) ask the server.
  expect(await body(m.earlyFetch(VAULTS))).toBe(4);
  expect(await body(m.earlyFetch(LIMITS))).toBe(5);
});

it('does not take an early read for another request', async () => {
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now(), '');
  await m.earlyFetch(VAULTS, { method: 'POST', body: '{}' });
  await m.earlyFetch(`${VAULTS}?all=1`);
  await m.earlyFetch(`${VAULTS}/v1`);
  await m.earlyFetch('http://elsewhere.example/api/vaults');
  expect(fetchMock).toHaveBeenCalledTimes(7);
  expect(await body(m.earlyFetch(VAULTS))).toBe(2);
});

it('passes a 401 through to the read that takes it', async () => {
  fetchMock.mockImplementation((input) =>
    Promise.resolve(
      urlOf(input).endsWith('/api/vaults')
        ? Response.json({ error: { code: 'unauthorized', message: 'Sign in' } }, { status: 401 })
        : Response.json({ user: {} }),
    ),
  );
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now(), '');
  await m.sessionFetch(SESSION);
  const res = await m.earlyFetch(VAULTS);
  expect(res.status).toBe(401);
  expect(fetchMock).toHaveBeenCalledTimes(3);
});

it('does not use early reads older than their maximum age', async () => {
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now() - m.EARLY_ANSWER_MAX_AGE_MS - 1, '');
  expect(await body(m.earlyFetch(VAULTS))).toBe(4);
  expect(await body(m.earlyFetch(LIMITS))).toBe(5);
});

it('drops the early reads when the session check finds no session', async () => {
  fetchMock.mockImplementation((input) =>
    Promise.resolve(
      urlOf(input).endsWith('/get-session')
        ? Response.json(null)
        : Response.json({ error: { code: 'unauthorized', message: 'Sign in' } }, { status: 401 }),
    ),
  );
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now(), '');
  // The auth client still reads the session's answer (the module only read a copy).
  expect(await (await m.sessionFetch(SESSION)).json()).toBeNull();
  // After signing in (OPAQUE, not through the auth client), the list asks the server.
  fetchMock.mockImplementation(() => Promise.resolve(Response.json({ vaults: [] })));
  expect(await (await m.earlyFetch(VAULTS)).json()).toEqual({ vaults: [] });
  expect(await (await m.earlyFetch(LIMITS)).json()).toEqual({ vaults: [] });
  expect(fetchMock).toHaveBeenCalledTimes(5);
});

it('drops the early reads when the auth client signs in or out', async () => {
  const m = await load();
  m.startSessionCheck('/dashboard', Date.now(), '');
  await m.sessionFetch(SESSION);
  await m.sessionFetch('http://localhost/api/auth/sign-out', { method: 'POST' });
  expect(await body(m.earlyFetch(VAULTS))).toBe(5);
  expect(await body(m.earlyFetch(LIMITS))).toBe(6);
});
