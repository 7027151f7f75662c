// [Note: early session check]
// A signed-in screen is drawn once Better Auth's session check (GET /api/auth/get-session) has
// answered, and the shell's guard (shell/RequireAuth.tsx) starts that check only once the
// screen's code has loaded; the dashboard's vault list then asks for the vaults and the limits
// (GET /api/vaults, GET /api/limits) only once the guard has drawn it: three waits in a row
// (issue 31, Lighthouse in bench/RESULTS.md). On a page load at a signed-in path, main.tsx sends
// the session check with the entry instead, and at /dashboard's vault list (only there) the two
// reads too, all three at once; the page's first request of each (the auth client's session
// check, the first vault list and limits queries, vaults/useVaults.ts) takes its answer: the same
// request, sent earlier, whatever it answered (a 401 is what the query sees, as if it had asked),
// so the screen's code, the session and what the list shows arrive together. Only the page's
// first request of each, and only within a few seconds: any later one asks the server. The two
// reads' answers are dropped unused when the session check finds no session, and when anything
// is sent to the auth server that could change who is signed in (not a GET), so that what was
// read before a sign-in or sign-out is never shown after it. The queries still check the
// answers with their schemas; no zod and no Better Auth here, so that the entry stays light.
import { readDashboardView } from '../vaults/dashboardView.ts';
import { afterPaint } from './afterPaint.ts';

/** The routes under the signed-in guard (routes.tsx). */
const SIGNED_IN_PATH = /^\/(?:(?:dashboard|subscription|admin)(?:\/|$)|vault\/)/;
const SESSION_CHECK = '/api/auth/get-session';
/** What the dashboard's vault list reads first (vaults/useVaults.ts). */
const DASHBOARD_READS = ['/api/vaults', '/api/limits'] as const;
/** An early answer older than this is not used: the request asks again. */
export const EARLY_ANSWER_MAX_AGE_MS = 10_000;

const early = new Map<string, { at: number; answer: Promise<Response> }>();
/** The requests whose page's first has gone by: only that one takes an early answer. */
const seen = new Set<string>();

function sendEarly(path: string, now: number, usable?: Promise<boolean>): Promise<Response> {
  const sent = fetch(path, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  // An answer that may not be used fails, and the request that takes it asks again.
  const answer = usable
    ? Promise.all([sent, usable]).then(([res, ok]) => (ok ? res : Promise.reject(new Error())))
    : sent;
  answer.catch(() => undefined); // a failure is the request's to see, when it takes the answer
  early.set(path, { at: now, answer });
  return sent;
}

function forgetDashboardReads(): void {
  for (const path of DASHBOARD_READS) early.delete(path);
}

/**
 * Sends the session check now if `path` is a signed-in screen's, and at the dashboard's vault
 * list its two reads too (main.tsx, at page load).
 */
export function startSessionCheck(path: string, now = Date.now(), search = location.search): void {
  if (early.has(SESSION_CHECK) || seen.has(SESSION_CHECK) || !SIGNED_IN_PATH.test(path)) return;
  const session = sendEarly(SESSION_CHECK, now);
  if (path !== '/dashboard' || readDashboardView(new URLSearchParams(search)) !== 'dashboard') {
    return;
  }
  // Read from a copy, taken before the auth client reads the answer. Better Auth answers null
  // when there is no session.
  const signedIn = session.then(
    async (res) =>
      res.ok &&
      Boolean(
        await res
          .clone()
          .json()
          .catch(() => null),
      ),
    () => false,
  );
  for (const read of DASHBOARD_READS) void sendEarly(read, now, signedIn);
}

/** The GET request's path if it may take an early answer (no query string), else undefined. */
function earlyPath(input: RequestInfo | URL, init?: RequestInit): string | undefined {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  return method === 'GET' && url.origin === location.origin && url.search === ''
    ? url.pathname
    : undefined;
}

/**
 * fetch, except that the page's first GET of a path sent early takes the early answer (the
 * dashboard's first queries, vaults/useVaults.ts).
 */
export function earlyFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const path = earlyPath(input, init);
  if (path !== undefined && !seen.has(path)) {
    seen.add(path);
    const taken = early.get(path);
    early.delete(path);
    if (taken && Date.now() - taken.at < EARLY_ANSWER_MAX_AGE_MS) {
      return taken.answer.catch(() => fetch(input, init));
    }
  }
  return fetch(input, init);
}

// [Note: public page's session check after its paint]
// On a public page (the sign-in page, the landing page) nothing is sent early, and the auth
// client's session check (auth/useAuthState.ts) went out before the browser had painted the
// page's first screen: at /auth the request sat before the card's paint, the page's largest, and
// Lighthouse's simulated slow network counted its round trip in the card's time (issue 31). All
// it decides there is whether a signed-in visitor moves on, which a moment later does as well; so
// the page's first session check, when it has no early answer, waits until the app's first
// screen has been committed (RootLayout.tsx calls firstScreenCommitted) and then painted
// (afterPaint.ts, [Note: /auth loads after its first paint]), and never more than
// AFTER_PAINT_MAX_WAIT_MS in all.
const AFTER_PAINT_MAX_WAIT_MS = 1000;
let firstCheck = true;
let markCommitted: () => void = () => undefined;
const committed = new Promise<void>((resolve) => (markCommitted = resolve));

/** The app's first screen has been committed ([Note: public page's session check after its paint]). */
export function firstScreenCommitted(): void {
  markCommitted();
}

function afterFirstPaint(): Promise<void> {
  return Promise.race([
    committed.then(afterPaint),
    new Promise<void>((resolve) => setTimeout(resolve, AFTER_PAINT_MAX_WAIT_MS)),
  ]);
}

/**
 * The auth client's fetch (authClient.ts): its first session check takes the early answer, or
 * without one waits for the page's paint ([Note: public page's session check after its paint]).
 */
export function sessionFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (earlyPath(input, init) === SESSION_CHECK) {
    const afterPaint = firstCheck && !early.has(SESSION_CHECK);
    firstCheck = false;
    return afterPaint
      ? afterFirstPaint().then(() => earlyFetch(input, init))
      : earlyFetch(input, init);
  }
  // A sign-in, a sign-out or any other change: the early reads were someone else's.
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (method !== 'GET') forgetDashboardReads();
  return fetch(input, init);
}
