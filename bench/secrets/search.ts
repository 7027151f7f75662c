// The secrets screen's search as bench/secrets/run.ts and provider.ts time it: what a list of
// `count` items shows, the query that finds its last item, and bench/shared/searchable.ts's
// in-page watch pointed at this screen's elements, kept in one place so that both benches time
// the same search.
import type { Page } from 'playwright-core';
import { armSearch } from '../shared/searchable.ts';

/** The paragraph under the screen's title that shows the item count. */
export const COUNT_SELECTOR = '#secrets-title + p';

/** The texts of one timed search. */
export interface SecretsSearch {
  /** The count line of a list of `count` items, formatted as the app shows it ('5,000'). */
  countText: string;
  /** Matches the last item only (the seeds give item i the user name `user<i>@…`). */
  query: string;
  /** The last item's title: its card's accessible name. */
  title: string;
}

/** The search that finds the last of `count` items, whose title is `title`. */
export function secretsSearch(count: number, title: string): SecretsSearch {
  return {
    countText: `${count.toLocaleString('en-US')} encrypted secrets`,
    query: `user${count - 1}@`,
    title,
  };
}

/**
 * Arms the in-page search timing before the Unlock click: the page types `query` as soon as the
 * count shows, so the bench's own fill later finds it already there (the same text, no change).
 */
export function armSecretsSearch(page: Page, search: SecretsSearch): Promise<void> {
  return armSearch(page, {
    ready: COUNT_SELECTOR,
    readyText: search.countText,
    input: 'input[type="search"]',
    query: search.query,
    results: 'section[aria-labelledby="secrets-title"]',
    item: 'article',
    name: search.title,
  });
}
