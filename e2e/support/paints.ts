// The page's paint entries, for the specs that check which element is the largest contentful
// paint (landing.spec.ts: index.html's hero; vaults/dashboard-frame.spec.ts: the dashboard's
// frame). Each candidate's element is read when the entry is reported: by the time a test looks,
// React has replaced index.html's static screen, and a removed element's entry no longer names it.
import { expect, type Page } from '@playwright/test';

export interface Paints {
  /** Each largest-contentful-paint candidate's start time, in order. */
  lcp: number[];
  fcp: number | undefined;
  /** For each candidate, whether its element was inside `selector` (recordLcpInside). */
  inside: boolean[];
}

/** Before the page loads: records, for each LCP candidate, whether it lies inside `selector`. */
export async function recordLcpInside(page: Page, selector: string): Promise<void> {
  await page.addInitScript((inside) => {
    const seen: boolean[] = [];
    (window as unknown as { lcpInside: boolean[] }).lcpInside = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const element = (entry as PerformanceEntry & { element: Element | null }).element;
        seen.push(element?.closest(inside) != null);
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  }, selector);
}

/** The page's paint entries, once a candidate of React's paint would have been reported. */
export function readPaints(page: Page): Promise<Paints> {
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const buffered = (type: string) =>
      new Promise<PerformanceEntry[]>((resolve) => {
        const observer = new PerformanceObserver((list) => {
          observer.disconnect();
          resolve(list.getEntries());
        });
        observer.observe({ type, buffered: true });
      });
    const lcp = await buffered('largest-contentful-paint');
    const fcp = (await buffered('paint')).find((e) => e.name === 'first-contentful-paint');
    const inside = (window as unknown as { lcpInside: boolean[] }).lcpInside;
    return { lcp: lcp.map((e) => e.startTime), fcp: fcp?.startTime, inside };
  });
}

/**
 * Checks that index.html's static screen (the `selector` given to recordLcpInside) was the page's
 * last largest-contentful-paint candidate, within a frame of the first contentful paint: it is
 * the page's first content, and React's copy of it (not larger) added no later candidate.
 */
export async function expectStaticLcp(page: Page, label = ''): Promise<void> {
  const seen = await readPaints(page);
  const context = `${label}${label ? ': ' : ''}${JSON.stringify(seen)}`;
  expect(seen.lcp.length, context).toBeGreaterThan(0);
  expect(seen.inside, context).toHaveLength(seen.lcp.length);
  expect(seen.inside.at(-1), context).toBe(true);
  expect(seen.fcp, context).toBeDefined();
  expect(Math.abs(seen.lcp.at(-1)! - seen.fcp!), context).toBeLessThanOrEqual(20);
}
