import { expect, it } from 'vitest';
import { currentSection, SETTINGS_SECTIONS } from './settingsSections.ts';

it('names the four sections in page order (issue 25)', () => {
  expect(SETTINGS_SECTIONS.map((s) => s.title)).toEqual([
    'Account',
    'Security',
    'Storage',
    'Vaults',
  ]);
});

it('marks the last section whose top has reached the reading line, else the first', () => {
  expect(currentSection([200, 900, 1600, 2400], 112)).toBe(0);
  expect(currentSection([-700, 100, 800, 1600], 112)).toBe(1);
  expect(currentSection([-2000, -1300, -600, 112], 112)).toBe(3);
});
