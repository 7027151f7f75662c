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

it('names phones and ChromeOS', () => {
  expect(
    deviceName(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    ),
  ).toBe('Safari on iOS');
  expect(
    deviceName(
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
    ),
  ).toBe('Chrome on Android');
  expect(
    deviceName(
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome on ChromeOS');
});

it('says so when it cannot tell', () => {
  expect(deviceName(null)).toBe('Unknown device');
  expect(deviceName('curl/8.5.0')).toBe('Unknown device');
});

it('formats dates in the US short style', () => {
  expect(formatSessionDate('2026-03-05T14:07:00')).toMatch(/^Mar 5, 2026, 2:07\sPM$/);
});
