// @vitest-environment happy-dom
// public/theme-init.js runs before paint and cannot import theme.ts: check that it applies the
// same rule as resolveTheme() in every case.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveTheme, type Theme } from './theme.ts';

const script = readFileSync(resolve(import.meta.dirname, '../../public/theme-init.js'), 'utf8');

function runInit(stored: string | null, systemDark: boolean): void {
  localStorage.clear();
  if (stored !== null) localStorage.setItem('theme', stored);
  window.matchMedia = ((query: string) => ({
    matches: systemDark && query === '(prefers-color-scheme: dark)',
  })) as unknown as typeof window.matchMedia;
  document.documentElement.className = '';
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs our own static file
  const run = new Function(script) as () => void;
  run();
}

afterEach(() => localStorage.clear());

describe('theme-init.js', () => {
  const cases: [string | null, boolean][] = [
    [null, false],
    [null, true],
    ['light', true],
    ['dark', false],
    ['bogus', true],
  ];
  it.each(cases)('stored %s, system dark %s: same result as resolveTheme', (stored, dark) => {
    runInit(stored, dark);
    const expected: Theme = resolveTheme(
      stored === 'light' || stored === 'dark' ? stored : null,
      dark,
    );
    expect(document.documentElement.classList.contains('dark')).toBe(expected === 'dark');
    expect(document.documentElement.style.colorScheme).toBe(expected);
  });
});
