// [Note: first screen without the spinner]
// A lazy screen (routes.tsx) is drawn once the router has run its route's `lazy`, which it starts
// when it is made (App.tsx), and until then the router draws its loading spinner
// (HydrateFallback): at a page load at /auth the first paint was the spinner and the card came a
// render later, the card being the page's largest paint (issue 31, Lighthouse in
// bench/RESULTS.md). The server names the route's chunks in a Link header (vite.config.ts
// `routePreloads`), so their bytes arrive with the entry; what was left was that spinner frame.
// So main.tsx renders the app once the lazy routes that the page's path matches have loaded: it
// runs their `lazy` too (the same dynamic imports as the router's, so the same modules, loaded
// once), and React draws the first render a task later, by when the router has taken them and
// run the route's loader (the sign-in page's refused-sign-in notice; when that loader has its own
// texts to load, the spinner may still show for that long). A path that matches no lazy route
// (the landing page, [Note: landing hero before the app]) waits for nothing. A chunk that fails
// to load does not hold the render back: the router shows what failed.
//
// Why not load the screens before the router is made (a top-level await in routes.tsx), so that
// it starts with them: the lazy chunks import the entry chunk's shared modules, and an entry that
// awaits them is a cycle, which the bundler breaks by splitting those modules out of the entry
// into some thirty more chunks: the card painted earlier, but Lighthouse's simulated slow network
// charged each request and the score fell (88 to 83 in turns).
import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Resolves once the lazy routes that `pathname` matches have loaded (or one failed to);
 * undefined when none is lazy, so that such a page does not wait.
 */
export function lazyRoutesReady(
  routes: RouteObject[],
  pathname: string,
): Promise<void> | undefined {
  const loads: Promise<unknown>[] = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    // A function (routes.tsx); React Router's per-property form is not used there.
    if (typeof route.lazy === 'function') loads.push((route.lazy as () => Promise<unknown>)());
  }
  if (loads.length === 0) return undefined;
  return Promise.all(loads).then(
    () => undefined,
    () => undefined, // the router loads it again and shows what failed
  );
}
