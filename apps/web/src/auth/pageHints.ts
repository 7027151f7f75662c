// What the server said about this page's own request, in its answer's Server-Timing header
// ([Note: session hint in Server-Timing] in the server's web/static.ts): `session` (the request
// carried a session cookie it signed) and `google` (Google sign-in is configured). public/
// theme-init.js reads the same entries before the first paint; the app reads them here where its
// first render must agree with what theme-init.js drew. Null where the server said nothing (a
// proxy that drops the header, Vite's dev server, a browser without the entry).

export type PageHint = 'session' | 'google';

/** The server's word on `name` for this page load: true, false, or null where it gave none. */
export function pageHint(name: PageHint): boolean | null {
  try {
    const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const entry = nav?.serverTiming?.find((t) => t.name === name);
    return entry ? entry.description === '1' : null;
  } catch {
    return null;
  }
}
