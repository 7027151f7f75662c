// The chunks of the web app's lazy screens, preloaded with their page. The router finds out which
// chunks a screen needs only once the entry has run; a Link header (RFC 8288) with HTML's
// rel=modulepreload lets the browser fetch them beside the entry instead, into its module map.
// The build writes the list per route path (apps/web/vite.config.ts).
//
// [Note: render-blocking files first] Those chunks are many (about 25 at /dashboard), and over
// HTTP/1.1 the browser opens at most six connections to a host: the page's own stylesheet and
// public/theme-init.js (a parser-blocking script), found only once the HTML is parsed, waited
// behind them, and the first paint with them (index.html's dashboard frame, [Note: dashboard frame
// before the app]) came only after every chunk had loaded and run. So where a page has chunks to
// preload, the header names those two files first, with the request modes of their tags in
// index.html (the stylesheet's crossorigin, the classic script's none), so that the browser uses
// what it preloaded.
import fs from 'node:fs';
import path from 'node:path';

/** Route path (`*`: any one segment) → the chunk URLs its screens need beyond the entry's. */
const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';
/** Its key for index.html's stylesheets and theme-init.js ([Note: render-blocking files first]). */
const RENDER_BLOCKING = 'render-blocking';

function blockingLink(file: string): string {
  return file.endsWith('.css')
    ? `<${file}>; rel=preload; as=style; crossorigin`
    : `<${file}>; rel=preload; as=script`;
}

/** The Link header value that preloads the chunks of the screen at `pathname`, if it has one. */
export async function preloadLink(webDist: string, pathname: string): Promise<string | undefined> {
  const text = await fs.promises
    .readFile(path.join(webDist, ROUTE_PRELOADS_FILE), 'utf8')
    .catch(() => null);
  let routes: Record<string, string[]>;
  try {
    routes = JSON.parse(text ?? '{}') as Record<string, string[]>;
  } catch {
    return undefined; // a build cut short: the page works without its preloads
  }
  const segments = pathname.replace(/\/+$/, '').split('/');
  const route = Object.keys(routes).find((r) => {
    if (r === RENDER_BLOCKING) return false;
    const parts = r.split('/');
    return (
      parts.length === segments.length && parts.every((p, i) => p === '*' || p === segments[i])
    );
  });
  const files = route ? routes[route] : undefined;
  if (!files?.length) return undefined;
  return [
    ...(routes[RENDER_BLOCKING] ?? []).map(blockingLink),
    ...files.map((f) => `<${f}>; rel=modulepreload`),
  ].join(', ');
}
