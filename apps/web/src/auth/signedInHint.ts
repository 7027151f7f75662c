// [Note: dashboard frame before the app] (index.html): public/theme-init.js shows the dashboard's
// frame before any script of the app has run, so it cannot ask the server whether there is a
// session (and the session cookie is HttpOnly). It reads this hint instead: set when the app's
// session check finds a session, cleared when it finds none and when a sign-out starts
// (shell/useSignOut.ts). It says only that this browser's last check found someone signed in:
// no name, no id, nothing the cookie does not already show. A stale hint (a session that ended
// elsewhere) costs one frame: the guard then sends the visitor to /auth, as without the hint.
// Where the server says whether the page's request carried a session cookie ([Note: session hint
// in Server-Timing] in the server's web/static.ts), its word wins and this hint is not read.
import type { AuthState } from './useAuthState.ts';

/** The localStorage key public/theme-init.js reads; keep the two in step. */
export const SIGNED_IN_HINT_KEY = 'sealvault.signedIn';

function write(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_HINT_KEY);
  } catch {
    // Storage blocked: no hint, no frame; nothing else depends on it.
  }
}

/** Keeps the hint in step with a settled session check; a check still out changes nothing. */
export function rememberAuthState(state: AuthState['status']): void {
  if (state !== 'loading') write(state === 'signedIn');
}

/** A sign-out (or an account deletion) has started: the next page load shows no frame. */
export function forgetSignedIn(): void {
  write(false);
}

let keptFrame: string | null = null;

/**
 * Keeps index.html's dashboard frame, if this page load showed it (public/theme-init.js), before
 * React's first render empties #root (main.tsx), for the guard to draw while the session check is
 * out (shell/DashboardLoading.tsx).
 */
export function keepDashboardFrame(): void {
  if (!document.documentElement.classList.contains('boot-dashboard')) return;
  keptFrame = document.getElementById('boot-dashboard')?.outerHTML ?? null;
}

/** index.html's dashboard frame as this page load showed it, or null where it showed none. */
export function keptDashboardFrame(): string | null {
  return keptFrame;
}
