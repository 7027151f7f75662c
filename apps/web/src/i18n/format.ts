// Dates and numbers in the reader's conventions (issue 33, item 7): the browser's locale when
// the app is shown in the browser's language (en-GB keeps day/month order, de-CH its
// apostrophes), else the app's language. Never a fixed 'en-US'.
import { currentLanguage } from './i18n.ts';

/** The BCP 47 locale for Intl formatters now. */
export function formatLocale(): string {
  const language = currentLanguage();
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  const matching = browser.find((tag) => tag.toLowerCase().split('-')[0] === language);
  return matching ?? (language === 'en' ? 'en-US' : language);
}

// [Note: formatters kept] Building an Intl formatter is costly (its locale's data is looked up
// each time): the dashboard's first render built one per number shown, 17 ms of a phone's start
// (issue 31). Formatters are kept per locale and options; a handful of option sets are in use.
const KEPT_MAX = 64;
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function kept<F>(
  cache: Map<string, F>,
  locale: string,
  options: object | undefined,
  make: () => F,
) {
  const key = `${locale} ${options ? JSON.stringify(options) : ''}`;
  let formatter = cache.get(key);
  if (!formatter) {
    if (cache.size >= KEPT_MAX) cache.clear();
    formatter = make();
    cache.set(key, formatter);
  }
  return formatter;
}

export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  const locale = formatLocale();
  return kept(numberFormats, locale, options, () => new Intl.NumberFormat(locale, options)).format(
    n,
  );
}

export function formatDate(
  value: string | number | Date,
  options?: Intl.DateTimeFormatOptions,
): string {
  const locale = formatLocale();
  return kept(dateFormats, locale, options, () => new Intl.DateTimeFormat(locale, options)).format(
    new Date(value),
  );
}
