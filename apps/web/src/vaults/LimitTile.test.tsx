// @vitest-environment happy-dom
// The limit tile's tooltip loads when the pointer or the focus comes to the tile, and shows then
// (LimitTile.tsx); its text is the tile's description from the start.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

afterEach(cleanup);
// A fresh module per test: the tooltip's code, once loaded, stays for the page.
beforeEach(() => vi.resetModules());

const TIP = 'You have reached your limit of 2 vaults. Upgrade to create more.';

async function renderTile() {
  const { LimitTile } = await import('./LimitTile.tsx');
  render(<LimitTile max={2} className="tile" />);
  return screen.getByRole('button', { name: /Vault Limit Reached/ });
}

it('is described by the tip before any tooltip code has loaded', async () => {
  const tile = await renderTile();
  expect(tile.getAttribute('aria-disabled')).toBe('true');
  const described = document.getElementById(tile.getAttribute('aria-describedby') ?? '');
  expect(described?.textContent).toBe(TIP);
  expect(screen.queryByRole('tooltip')).toBeNull();
});

it('shows the tooltip once loaded when the focus came to the tile, and keeps the focus there', async () => {
  const tile = await renderTile();
  act(() => tile.focus());
  await waitFor(() => expect(screen.getByRole('tooltip').textContent).toBe(TIP));
  expect(document.activeElement).toBe(screen.getByRole('button', { name: /Vault Limit Reached/ }));
});

it('shows the tooltip once loaded when the pointer came to the tile', async () => {
  const tile = await renderTile();
  fireEvent.pointerEnter(tile, { pointerType: 'mouse' });
  await waitFor(() => expect(screen.getByRole('tooltip').textContent).toBe(TIP));
});
