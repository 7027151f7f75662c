// The remembered location (docs/product.md §2, signed-in guard): the guard sends a signed-out visitor to
// /auth?next=<path>, and after signing in they come back there. It travels in the query string,
// not in router state, so it survives the Google redirect and a reload. Only same-origin paths
// are accepted, so /auth?next=https://evil.example cannot send anyone away.

export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

/** The path to return to, or /dashboard when the value is missing or not a same-origin path. */
export function safeNext(value: string | null | undefined): string {
  if (!value) return DEFAULT_AFTER_SIGN_IN;
  // One leading slash, no scheme-relative "//host" or "/\host", no control characters.
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return DEFAULT_AFTER_SIGN_IN;
  // /auth itself would loop.
  if (value === '/auth' || value.startsWith('/auth?') || value.startsWith('/auth/')) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  return value;
}

/** The /auth address that returns to `location` (path + search + hash) after signing in. */
export function authPathFor(location: { pathname: string; search: string; hash: string }) {
  const next = `${location.pathname}${location.search}${location.hash}`;
  return next === DEFAULT_AFTER_SIGN_IN ? '/auth' : `/auth?${new URLSearchParams({ next })}`;
}
