// When the app may replace index.html's first screen, the landing hero ([Note: landing hero
// before the app]), the dashboard's frame ([Note: dashboard frame before the app]) or /auth's
// sign-in card ([Note: sign-in card before the app]): not before the browser has recorded its
// first paint as the page's largest contentful paint.
import { startTransition } from 'react';

/**
 * Whether public/theme-init.js showed one of index.html's first screens: the hero (at / in
 * English), the dashboard's frame (at /dashboard, in English or German, on a device that was
 * signed in) or the sign-in card (at /auth's sign-in step, in English or German).
 */
export function bootHeroShown(): boolean {
  const classes = document.documentElement.classList;
  return ['boot-hero', 'boot-dashboard', 'boot-auth'].some((name) => classes.contains(name));
}

/**
 * Resolves once the hero's paint has been reported as a 'largest-contentful-paint' entry, at
 * once when there is none to wait for (no hero, a hidden page, a browser without the entry
 * type), and after `limitMs` at the latest.
 *
 * Why wait: Chromium records a text's paint only when the frame that drew it has been presented,
 * and drops the record if the node is removed before that. Rendered at once, React's first
 * commit (which empties #root) often lands in that gap, so the hero never becomes an LCP
 * candidate and React's copy of the paragraph, painted later, does. Once the hero's entry is in,
 * React's copy (the same size, not larger) adds no candidate: LCP stays at the first paint.
 */
export function bootHeroPainted(limitMs = 500): Promise<void> {
  const supported = PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint');
  if (!bootHeroShown() || document.visibilityState === 'hidden' || !supported) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver(done);
    const timer = setTimeout(done, limitMs);
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  });
}

/**
 * Runs the app's first render: in a transition behind the hero, so that React renders in short
 * slices instead of one long task while the visitor already sees the page (the landing's total
 * blocking time, issue 31); at once everywhere else, where nothing is on screen yet.
 */
export function renderFirst(render: () => void): void {
  if (bootHeroShown()) startTransition(render);
  else render();
}
