// The chunks of the web app's lazy screens, preloaded with their page. The router finds out which
// chunks a screen needs only once the entry has run; a Link header (RFC 8288) with HTML's
// rel=modulepreload lets the browser fetch them beside the entry instead, into its module map.
// The build writes the list per route path (apps/web/vite.config.ts).
import fs from 'node:fs';
import path from 'node:path';

/** Route path (`*`: any one segment) → the chunk URLs its screens need beyond the entry's. */
const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

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
    const parts = r.split('/');
    return (
      parts.length === segments.length && parts.every((p, i) => p === '*' || p === segments[i])
    );
  });
  const files = route ? routes[route] : undefined;
  return files?.length ? files.map((f) => `<${f}>; rel=modulepreload`).join(', ') : undefined;
}
