// In-page timing for bench/files: how long an interaction takes from its input event to the first
// frame painted with its result, measured with the page's own clock (performance.now, the events'
// timeStamp) so Playwright's round trips are not in the figure; frame times while scrolling; the
// page thread's busiest functions in a DevTools CPU profile (BENCH_PROFILE=1).
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * What one measured interaction waits for: step i begins with the i-th `trigger` event (captured on
 * the window) and ends once the element `selector` shows `expect[i]` (or a later step's text: fast
 * keys can share a frame) and a frame has been painted since. An element that is absent reads as ''.
 * The texts of the steps must differ from each other and from the text before the first step.
 */
export interface Watch {
  trigger: 'keydown' | 'change' | 'click';
  selector: string;
  expect: string[];
}

/** One step's times in page milliseconds: its event, the DOM showing its text, the paint after. */
export interface Step {
  start: number;
  dom: number;
  paint: number;
}

/**
 * tsx (esbuild's keepNames) wraps named inner functions in `__name(...)` calls; functions sent to
 * page.evaluate carry them into the page, where the helper must exist.
 */
export const allowNamedFunctionsInPage = (ctx: BrowserContext) =>
  ctx.addInitScript({ content: 'globalThis.__name = (f) => f;' });

/**
 * Starts watching for `watch` in the page; the interaction is then driven from Node and
 * `settle()` answers its steps. "Painted" is taken as a message posted from the first
 * requestAnimationFrame callback after the change: it runs once that frame's style, layout and
 * paint are done on the page thread (what web-vitals' INP measures up to, near enough).
 */
export async function arm(page: Page, watch: Watch): Promise<void> {
  await page.evaluate((w) => {
    const starts: number[] = [];
    const dom: number[] = [];
    const paint: number[] = [];
    let finish: (steps: { start: number; dom: number; paint: number }[]) => void = () => {};
    const done = new Promise<{ start: number; dom: number; paint: number }[]>((r) => (finish = r));
    const text = () => (document.querySelector(w.selector)?.textContent ?? '').trim();
    const onEvent = (e: Event) => {
      if (starts.length < w.expect.length) starts.push(e.timeStamp || performance.now());
    };
    let frameAsked = false;
    const askFrame = () => {
      if (frameAsked) return;
      frameAsked = true;
      requestAnimationFrame(() => {
        const upTo = dom.length; // the steps this frame renders
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          const now = performance.now();
          frameAsked = false;
          while (paint.length < upTo) paint.push(now);
          if (paint.length === w.expect.length) {
            observer.disconnect();
            window.removeEventListener(w.trigger, onEvent, true);
            finish(starts.map((start, i) => ({ start, dom: dom[i]!, paint: paint[i]! })));
          } else if (dom.length > paint.length) askFrame();
        };
        ch.port2.postMessage(null);
      });
    };
    const check = () => {
      const reached = Math.min(w.expect.lastIndexOf(text()), starts.length - 1);
      if (reached < dom.length) return;
      const now = performance.now();
      while (dom.length <= reached) dom.push(now);
      askFrame();
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    window.addEventListener(w.trigger, onEvent, true);
    (window as unknown as { benchWatch: Promise<unknown> }).benchWatch = done;
  }, watch);
}

/** The steps of the interaction `arm()` watches, once all are painted (or an error after `ms`). */
export async function settle(page: Page, ms = 30_000): Promise<Step[]> {
  return page.evaluate(
    (timeout) =>
      Promise.race([
        (window as unknown as { benchWatch: Promise<Step[]> }).benchWatch,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the watched text was not painted in time')), timeout),
        ),
      ]),
    ms,
  );
}

/**
 * BENCH_PROFILE: records the page's calls to its Workers (the crypto client's requests carry an id
 * and a method; the answer the same id), for cryptoCalls() to say when each method ran.
 */
export const traceWorkerCalls = (ctx: BrowserContext) =>
  ctx.addInitScript(() => {
    const calls: { method: string; start: number; end: number }[] = [];
    const byId = new Map<string, (typeof calls)[0]>();
    const watched = new WeakSet<Worker>();
    const post = Object.getOwnPropertyDescriptor(Worker.prototype, 'postMessage')!.value as (
      ...a: unknown[]
    ) => void;
    Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
      const req = args[0] as { id?: number; method?: string } | null;
      if (req && typeof req.method === 'string' && typeof req.id === 'number') {
        const call = { method: req.method, start: performance.now(), end: NaN };
        calls.push(call);
        byId.set(`${req.id}`, call);
        if (!watched.has(this)) {
          watched.add(this);
          this.addEventListener('message', (e: MessageEvent<{ id?: number }>) => {
            const c = byId.get(`${e.data?.id}`);
            if (c && Number.isNaN(c.end)) c.end = performance.now();
          });
        }
      }
      return post.apply(this, args);
    };
    (globalThis as unknown as { benchCalls: typeof calls }).benchCalls = calls;
  });

/** The Worker calls since `t0` by method: how many, from the first start to the last answer. */
export async function cryptoCalls(page: Page, t0: number): Promise<string> {
  const calls = await page.evaluate(
    () =>
      (globalThis as unknown as { benchCalls?: { method: string; start: number; end: number }[] })
        .benchCalls ?? [],
  );
  const by = new Map<string, { n: number; from: number; to: number }>();
  for (const c of calls.filter((x) => x.start >= t0)) {
    const m = by.get(c.method) ?? { n: 0, from: c.start, to: c.end };
    by.set(c.method, { n: m.n + 1, from: Math.min(m.from, c.start), to: Math.max(m.to, c.end) });
  }
  return [...by]
    .map(
      ([method, { n, from, to }]) =>
        `${method} x${n} ${Math.round(from - t0)}-${Math.round(to - t0)}`,
    )
    .join(', ');
}

/**
 * Where an unlock's time went, in the page: its requests after the Unlock click (the step's start)
 * and when the count was in the DOM and painted, each in ms from the click.
 */
export async function unlockTimeline(page: Page, step: Step): Promise<string> {
  const { start, dom, paint } = step;
  const requests = await page.evaluate(
    (t0) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime >= t0)
        .map((e) => {
          const { pathname } = new URL(e.name);
          const at = `${Math.round(e.startTime - t0)}-${Math.round((e as PerformanceResourceTiming).responseEnd - t0)}`;
          return `${pathname.replace(/[0-9a-f-]{36}/g, ':id')} ${at}`;
        }),
    start,
  );
  return `${requests.join(', ')}; count in the DOM ${Math.round(dom - start)}, painted ${Math.round(paint - start)}`;
}

/** Scrolls the window from top to bottom in `ms`, one step a frame; returns the frame times. */
export async function scrollFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(async (duration) => {
    window.scrollTo(0, 0);
    await new Promise((r) => requestAnimationFrame(r));
    const end = document.documentElement.scrollHeight - window.innerHeight;
    const frames: number[] = [];
    const t0 = performance.now();
    let last = t0;
    for (;;) {
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      frames.push(now - last);
      last = now;
      const f = Math.min(1, (now - t0) / duration);
      window.scrollTo(0, f * end);
      if (f >= 1) break;
    }
    return frames.slice(1);
  }, ms);
}

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** "min / median / max ms" of `xs`. */
export const spread = (xs: number[]) =>
  `${Math.round(Math.min(...xs))} / ${Math.round(pct(xs, 0.5))} / ${Math.round(Math.max(...xs))} ms`;

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** A CPU profile of the page thread around `fn`; answers fn's result and the busiest functions. */
export async function profiled<T>(
  cdp: CDPSession | null,
  fn: () => Promise<T>,
): Promise<[T, string]> {
  if (!cdp) return [await fn(), ''];
  await cdp.send('Profiler.start');
  const result = await fn();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  return [result, busiest(profile)];
}

/** The busiest functions (self time) of a DevTools CPU profile, idle time left out. */
export function busiest(p: CpuProfile, top = 10): string {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const n of p.nodes) {
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') continue;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + (self.get(n.id) ?? 0));
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .filter(([, us]) => us >= 1000)
    .map(([k, us]) => `    ${(us / 1000).toFixed(0).padStart(5)} ms ${k}`)
    .join('\n');
}

/** Scrolls the whole list in list then grid view: frame times and the rows the DOM holds. */
export async function scrollReport(page: Page): Promise<string[]> {
  const lines: string[] = [];
  for (const view of ['List', 'Grid'] as const) {
    await page.getByRole('button', { name: `${view} view` }).click();
    await page.waitForTimeout(500);
    const frames = await scrollFrames(page, 5000);
    const nodes = await page.evaluate(
      () => document.querySelectorAll('[role="listitem"], [role="row"]').length,
    );
    lines.push(
      `${view.toLowerCase()}: ${frames.length} frames in 5 s, frame time p50 ${pct(frames, 0.5).toFixed(1)} ms, p95 ${pct(frames, 0.95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms, ${frames.filter((f) => f > 50).length} frames over 50 ms; ${nodes} rows in the DOM`,
    );
  }
  return lines;
}
