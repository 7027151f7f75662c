// [Note: early session check]
// A signed-in screen is drawn once Better Auth's session check (GET /api/auth/get-session) has
// answered, and the shell's guard (shell/RequireAuth.tsx) starts that check only once the
// screen's code has loaded: two waits in a row (issue 31, Lighthouse in bench/RESULTS.md). On a
// page load at a signed-in path, main.tsx sends the request with the entry instead, and the
// auth client's first session check of the page takes its answer: the same request, sent
// earlier, so the screen's code and the session arrive together. Only the page's first check,
// and only within a few seconds: any later check (after signing in or out) asks the server.
// No zod and no Better Auth here, so that the entry stays light.

/** The routes under the signed-in guard (routes.tsx). */
const SIGNED_IN_PATH = /^\/(?:dashboard|subscription|admin|vault\/)/;
const SESSION_CHECK = '/api/auth/get-session';
/** An early answer older than this is not used: the check asks again. */
export const EARLY_SESSION_MAX_AGE_MS = 10_000;

let early: { at: number; answer: Promise<Response> } | undefined;
let firstCheckSeen = false;

/** Sends the session check now if `path` is a signed-in screen's (main.tsx, at page load). */
export function startSessionCheck(path: string, now = Date.now()): void {
  if (early || firstCheckSeen || !SIGNED_IN_PATH.test(path)) return;
  const answer = fetch(SESSION_CHECK, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  answer.catch(() => undefined); // a failure is the check's to see, when it takes the answer
  early = { at: now, answer };
}

function isSessionCheck(input: RequestInfo | URL, init?: RequestInit): boolean {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  return method === 'GET' && url.pathname === SESSION_CHECK && url.search === '';
}

/** The auth client's fetch (authClient.ts): the page's first session check takes the early answer. */
export function sessionFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (!firstCheckSeen && isSessionCheck(input, init)) {
    firstCheckSeen = true;
    const taken = early;
    early = undefined;
    if (taken && Date.now() - taken.at < EARLY_SESSION_MAX_AGE_MS) {
      return taken.answer.catch(() => fetch(input, init));
    }
  }
  return fetch(input, init);
}
