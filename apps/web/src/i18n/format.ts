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

export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(formatLocale(), options).format(n);
}

export function formatDate(
  value: string | number | Date,
  options?: Intl.DateTimeFormatOptions,
): string {
  return new Intl.DateTimeFormat(formatLocale(), options).format(new Date(value));
}
