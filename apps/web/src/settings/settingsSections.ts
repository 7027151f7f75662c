// The sections of the settings view, in page order (docs/product.md §2 "Settings view", issue
// 25): what people come for first, the account's deletion last, after every section.
import { msg } from '../i18n/i18n.ts';

export const SETTINGS_SECTIONS = [
  { id: 'settings-account', title: msg('Account') },
  { id: 'settings-security', title: msg('Security') },
  { id: 'settings-storage', title: msg('Storage') },
  { id: 'settings-vaults', title: msg('Vaults') },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

/**
 * The section being read: the last one whose top has scrolled up to `line` (px from the top of
 * the viewport, just under the sticky top bar), else the first. `tops` are the sections' tops
 * relative to the viewport, in page order.
 */
export function currentSection(tops: readonly number[], line: number): number {
  let current = 0;
  tops.forEach((top, i) => {
    if (top <= line) current = i;
  });
  return current;
}
