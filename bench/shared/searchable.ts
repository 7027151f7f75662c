// In-page timing of "Unlock pressed → searchable" (issue 31, Speed II: 5,000 secrets searchable
// in under 1 s): the page itself types the search as soon as its list shows, so the figure is the
// app's time, with none of the bench's polling (Playwright's steps 20, 50, 100, 100, 500 ms apart)
// or DevTools round trips in it. Armed before the click, as bench/files/measure.ts's `arm` is.
import type { Page } from 'playwright-core';

/**
 * What one search waits for. After the first click (captured on the window): once `ready` shows
 * `readyText` the page types `query` into the `input` box; the search has answered once every
 * element `item` inside `results` is named (aria-label) `name`, and there is at least one.
 */
export interface SearchWatch {
  ready: string;
  readyText: string;
  input: string;
  query: string;
  results: string;
  item: string;
  name: string;
}

/**
 * Page milliseconds (performance.now, the click event's timeStamp): the click, the list ready,
 * the query typed, the search's answer in the DOM, and the first frame painted after it.
 */
export interface Searched {
  click: number;
  ready: number;
  typed: number;
  found: number;
  paint: number;
}

/**
 * Starts watching in the page; the click is then driven from Node and `searched()` answers the
 * times. The query goes in as a user's typing reaches React: the value set through
 * HTMLInputElement's own setter (assigning `box.value` would also update React's value tracker,
 * so React would see no change) and a bubbling `input` event, which React reads as onChange. "Painted" is a message posted from the first
 * requestAnimationFrame callback after the answer, as in `arm`.
 */
export async function armSearch(page: Page, watch: SearchWatch): Promise<void> {
  await page.evaluate((w) => {
    const at = { click: NaN, ready: NaN, typed: NaN, found: NaN, paint: NaN };
    let finish: (s: typeof at) => void = () => {};
    let fail: (e: Error) => void = () => {};
    const done = new Promise<typeof at>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const onClick = (e: Event) => {
      if (Number.isNaN(at.click)) at.click = e.timeStamp || performance.now();
    };
    const answered = () => {
      const items = [...(document.querySelector(w.results)?.querySelectorAll(w.item) ?? [])];
      return items.length > 0 && items.every((el) => el.getAttribute('aria-label') === w.name);
    };
    const type = () => {
      const box = document.querySelector(w.input);
      if (!(box instanceof HTMLInputElement)) return false;
      Reflect.set(HTMLInputElement.prototype, 'value', w.query, box);
      box.dispatchEvent(new Event('input', { bubbles: true }));
      return true;
    };
    const stop = () => {
      observer.disconnect();
      window.removeEventListener('click', onClick, true);
    };
    const check = () => {
      if (Number.isNaN(at.click)) return;
      if (Number.isNaN(at.ready)) {
        const text = (document.querySelector(w.ready)?.textContent ?? '').trim();
        if (text !== w.readyText) return;
        at.ready = performance.now();
        if (!type()) {
          stop();
          fail(new Error(`no search box ${w.input}`));
          return;
        }
        at.typed = performance.now();
        // The answer can already be in the DOM (a synchronous render, or the item among the
        // first cards): fall through and look at once.
      }
      if (!answered()) return;
      at.found = performance.now();
      stop();
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          at.paint = performance.now();
          finish(at);
        };
        ch.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    window.addEventListener('click', onClick, true);
    (window as unknown as { benchSearch: Promise<unknown> }).benchSearch = done;
  }, watch);
}

/** The times of the search `armSearch()` watches, once painted (or an error after `ms`). */
export async function searched(page: Page, ms = 30_000): Promise<Searched> {
  return page.evaluate(
    (timeout) =>
      Promise.race([
        (window as unknown as { benchSearch: Promise<Searched> }).benchSearch,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the search was not answered in time')), timeout),
        ),
      ]),
    ms,
  );
}

/** "count shown X, answered Y, painted Z ms after the click", for a trace line. */
export const searchTimeline = (s: Searched) =>
  `count shown ${Math.round(s.ready - s.click)}, answered ${Math.round(s.found - s.click)}, painted ${Math.round(s.paint - s.click)} ms after the click`;
