// A short, readable name for a session's device from its User-Agent: "Chrome on Linux". The
// parsing is Bowser's; only its longer names are shortened here.
import Bowser from 'bowser';

const shorter: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Chrome OS': 'ChromeOS',
  Chromium: 'Chrome',
};

export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  const name = (n: string | undefined) => (n ? (shorter[n] ?? n) : undefined);
  const b = name(browser.name);
  const s = name(os.name);
  if (b && s) return `${b} on ${s}`;
  return b ?? s ?? 'Unknown device';
}

/** Dates in the US short format (docs/product.md §9), with the time. */
export function formatSessionDate(value: Date | string): string {
  return new Date(value).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}
