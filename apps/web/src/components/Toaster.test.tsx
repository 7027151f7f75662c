// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, expect, it } from 'vitest';
import { getBrowserThemeStore } from '../theme/themeStore.ts';
import { Toaster } from './Toaster.tsx';

afterEach(() => {
  toast.dismiss();
  cleanup();
});

it('announces a toast through a polite live region', async () => {
  render(<Toaster />);
  const region = screen.getByRole('region', { name: /^Notifications/ });
  expect(region.getAttribute('aria-live')).toBe('polite');
  act(() => {
    toast.success('Password copied. The clipboard clears in 30 seconds.');
  });
  expect((await within(region).findByRole('listitem')).textContent).toBe(
    'Password copied. The clipboard clears in 30 seconds.',
  );
});

it("follows the app's theme", async () => {
  const store = getBrowserThemeStore();
  act(() => store.setTheme('dark'));
  render(<Toaster />);
  // Sonner draws its list only while a toast shows; its theme is on the list.
  act(() => {
    toast.error('Failed to rename file');
  });
  await screen.findByText('Failed to rename file');
  const theme = () =>
    document.querySelector('[data-sonner-theme]')?.getAttribute('data-sonner-theme');
  expect(theme()).toBe('dark');
  act(() => store.setTheme('light'));
  expect(theme()).toBe('light');
});
