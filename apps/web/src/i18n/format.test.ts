// [Note: formatters kept] in format.ts: a kept formatter is reused only for the same locale and
// the same options, so that a language change or other options never get a wrong format.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatNumber, warmFormatters } from './format.ts';

const language = vi.hoisted(() => ({ current: 'en' }));
vi.mock('./i18n.ts', () => ({ currentLanguage: () => language.current }));

afterEach(() => {
  language.current = 'en';
  vi.unstubAllGlobals();
});

describe('kept formatters', () => {
  it('keeps each option set apart', () => {
    vi.stubGlobal('navigator', { languages: ['en-US'] });
    expect(formatNumber(1234.567)).toBe('1,234.567');
    expect(formatNumber(1234.567, { maximumFractionDigits: 0 })).toBe('1,235');
    expect(formatNumber(1234.567)).toBe('1,234.567');
    expect(formatNumber(0.5, { style: 'percent' })).toBe('50%');
  });

  it('follows a change of language', () => {
    vi.stubGlobal('navigator', { languages: ['en-US'] });
    expect(formatNumber(1234.5)).toBe('1,234.5');
    language.current = 'de';
    expect(formatNumber(1234.5)).toBe('1.234,5');
    const day = Date.UTC(2026, 10, 28, 12);
    expect(formatDate(day, { timeZone: 'UTC', dateStyle: 'short' })).toBe('28.11.26');
    language.current = 'en';
    expect(formatDate(day, { timeZone: 'UTC', dateStyle: 'short' })).toBe('11/28/26');
  });
});

describe('warmFormatters', () => {
  /** Counts the formatters built (constructor calls), each still a real one. */
  function counting<K extends 'NumberFormat' | 'DateTimeFormat'>(name: K) {
    const Real = Intl[name];
    const built = { count: 0, restore: () => void (Intl[name] = Real) };
    Intl[name] = function (...args: unknown[]) {
      built.count++;
      return new (Real as unknown as new (...a: unknown[]) => object)(...args);
    } as unknown as (typeof Intl)[K];
    return built;
  }

  it('builds the first screens’ formatters in tasks of their own, kept for the render', () => {
    vi.useFakeTimers();
    // A locale no test above has used: nothing of it is kept yet.
    vi.stubGlobal('navigator', { languages: ['en-GB'] });
    const numbers = counting('NumberFormat');
    const dates = counting('DateTimeFormat');
    const numeric = { month: 'numeric', day: 'numeric', year: 'numeric' } as const;
    try {
      warmFormatters();
      // Nothing in the caller's task.
      expect(numbers.count).toBe(0);
      vi.advanceTimersToNextTimer();
      expect(numbers.count).toBe(1);
      expect(dates.count).toBe(0);
      vi.advanceTimersToNextTimer();
      expect(dates.count).toBe(1);
      // The render's plain number and numeric date reuse them.
      expect(formatNumber(1234)).toBe('1,234');
      expect(formatDate(Date.UTC(2026, 2, 4, 12), numeric)).toBe('04/03/2026');
      expect([numbers.count, dates.count]).toEqual([1, 1]);
    } finally {
      numbers.restore();
      dates.restore();
      vi.useRealTimers();
    }
  });
});
