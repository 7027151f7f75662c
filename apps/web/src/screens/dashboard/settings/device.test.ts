import { expect, it } from 'vitest';
import { deviceName, formatSessionDate } from './device.ts';

it('names common browsers and systems', () => {
  expect(
    deviceName(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome on Linux');
  expect(
    deviceName(
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    ),
  ).toBe('Safari on macOS');
  expect(
    deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'),
  ).toBe('Firefox on Windows');
  expect(
    deviceName(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0',
    ),
  ).toBe('Edge on Windows');
});

it('says so when it cannot tell', () => {
  expect(deviceName(null)).toBe('Unknown device');
  expect(deviceName('curl/8.5.0')).toBe('Unknown device');
});

it('formats dates in the US short style', () => {
  expect(formatSessionDate('2026-03-05T14:07:00')).toMatch(/^Mar 5, 2026, 2:07\sPM$/);
});
