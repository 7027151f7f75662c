// [Note: formatters kept] in format.ts: a kept formatter is reused only for the same locale and
// the same options, so that a language change or other options never get a wrong format.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatNumber } from './format.ts';

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
