// A short, readable name for a session's device from its User-Agent: "Chrome on Linux". The
// parsing is Bowser's; only its longer names are shortened here.
import Bowser from 'bowser';
import { formatDate } from '../i18n/format.ts';
import { i18n } from '../i18n/i18n.ts';

const shorter: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Chrome OS': 'ChromeOS',
  Chromium: 'Chrome',
};

export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return i18n.t('Unknown device');
  const { browser, os } = Bowser.parse(userAgent);
  const name = (n: string | undefined) => (n ? (shorter[n] ?? n) : undefined);
  const b = name(browser.name);
  const s = name(os.name);
  if (b && s) return i18n.t('{{browser}} on {{os}}', { browser: b, os: s });
  return b ?? s ?? i18n.t('Unknown device');
}

/** Dates in the short format (docs/product.md §9; the reader's locale, i18n/format.ts), with the time. */
export function formatSessionDate(value: Date | string): string {
  return formatDate(value, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}
