// @vitest-environment happy-dom
// [Note: user menu on first reach]: the top bar's button works the first time, before the menu's
// code has loaded: a press or an opening key is kept and opens the menu once it has.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

vi.mock('./useSignOut.ts', () => ({ useSignOut: () => vi.fn() }));

afterEach(cleanup);
// A fresh module per test: the menu's code, once loaded, stays for the page.
beforeEach(() => vi.resetModules());

async function renderMenu() {
  const { UserMenu } = await import('./UserMenu.tsx');
  render(
    <MemoryRouter>
      <UserMenu fullName="Ada Lovelace" email="ada@example.com" />
    </MemoryRouter>,
  );
  return screen.getByRole('button', { name: 'Account menu, AL' });
}

it('draws the button with its name and no menu until reached', async () => {
  const button = await renderMenu();
  expect(button.getAttribute('aria-haspopup')).toBe('menu');
  expect(button.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByRole('menu')).toBeNull();
});

it('opens on the first press, made before the code had loaded', async () => {
  const button = await renderMenu();
  fireEvent.pointerDown(button, { button: 0, ctrlKey: false, pointerType: 'mouse' });
  const menu = await screen.findByRole('menu');
  expect(menu.textContent).toContain('ada@example.com');
  expect(screen.getByRole('menuitem', { name: 'Logout' })).toBeTruthy();
  expect(
    screen.getByRole('button', { name: 'Account menu, AL' }).getAttribute('aria-expanded'),
  ).toBe('true');
});

it('opens from the keyboard before the code had loaded, the focus on the first item', async () => {
  const button = await renderMenu();
  act(() => button.focus());
  fireEvent.keyDown(button, { key: 'Enter' });
  await screen.findByRole('menu');
  await waitFor(() =>
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Subscription' })),
  );
});

it('hands the focus to the loaded trigger, closed, when the focus reached it', async () => {
  const button = await renderMenu();
  act(() => button.focus());
  await waitFor(() => expect(button.isConnected).toBe(false));
  const trigger = screen.getByRole('button', { name: 'Account menu, AL' });
  expect(document.activeElement).toBe(trigger);
  expect(trigger.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByRole('menu')).toBeNull();
});
