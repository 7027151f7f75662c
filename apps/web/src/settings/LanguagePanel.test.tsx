// @vitest-environment happy-dom
// The language switch in Settings (issue 33, item 7): German at once, on this device, and back.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { setLanguage } from '../i18n/i18n.ts';
import { LanguagePanel } from './LanguagePanel.tsx';

afterEach(async () => {
  cleanup();
  await setLanguage('browser');
});

it('shows the app in German once chosen, keeps the choice, and follows the browser again', async () => {
  const user = userEvent.setup();
  render(<LanguagePanel />);
  expect(screen.getByRole('radio', { name: 'Browser language' })).toHaveProperty('checked', true);
  await user.click(screen.getByRole('radio', { name: 'Deutsch' }));
  expect(await screen.findByRole('heading', { name: 'Sprache' })).toBeTruthy();
  expect(document.documentElement.lang).toBe('de');
  expect(localStorage.getItem('sealvault.language')).toBe('de');
  expect(screen.getByRole('radio', { name: 'Deutsch' })).toHaveProperty('checked', true);
  await user.click(screen.getByRole('radio', { name: 'Browsersprache' }));
  expect(await screen.findByRole('heading', { name: 'Language' })).toBeTruthy();
  expect(localStorage.getItem('sealvault.language')).toBeNull();
  expect(document.documentElement.lang).toBe('en');
});
