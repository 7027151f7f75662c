// [Note: session hint in Server-Timing]: the page's own navigation entry carries the server's
// hints; anything else (no entry, no such name, no timing API) is "no word", never false.
import { afterEach, expect, it, vi } from 'vitest';
import { pageHint } from './pageHints.ts';

const entries = (serverTiming: { name: string; description: string }[] | undefined) =>
  vi.stubGlobal('performance', { getEntriesByType: () => [{ serverTiming }] });

afterEach(() => vi.unstubAllGlobals());

it("reads the server's word on each name", () => {
  entries([
    { name: 'session', description: '0' },
    { name: 'google', description: '1' },
  ]);
  expect(pageHint('session')).toBe(false);
  expect(pageHint('google')).toBe(true);
});

it('is null where the server said nothing', () => {
  entries([]);
  expect(pageHint('google')).toBeNull();
  entries(undefined);
  expect(pageHint('session')).toBeNull();
  vi.stubGlobal('performance', { getEntriesByType: () => [] });
  expect(pageHint('session')).toBeNull();
  vi.stubGlobal('performance', undefined);
  expect(pageHint('session')).toBeNull();
});
