// @vitest-environment happy-dom
// The vault card's structure. Whether the badge and the delete button overlap at real widths is
// measured in Chromium by e2e/specs/a11y.spec.ts ([Note: phone layout]); here: heading level, the
// full name for a truncated title, and the button beside the badge rather than positioned over it.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import type { Vault } from '@sealvault/protocol';
import { VaultSessionsProvider } from './sessionContext.tsx';
import { VaultCard } from './VaultCard.tsx';
import { createVaultSessions } from './vaultSessions.ts';

vi.mock('../crypto/vaultKeys.ts', () => ({ vaultKeys: { unlock: vi.fn(), lock: vi.fn() } }));

afterEach(cleanup);

const LONG_NAME = 'The family archive: deeds, passports, insurance, tax returns and more';

const vault: Vault = {
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: LONG_NAME,
  description: null,
  vault_type: 'files',
  provider_type: 'server',
  storage_folder: null,
  is_hidden: false,
  last_accessed: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  file_count: 2,
  secrets_count: 0,
  total_size: 0,
  key: { format: 'vf1', slots: [] } as unknown as Vault['key'],
  key_revision: 0,
};

function renderCard(unlocked: boolean, onDelete = vi.fn()) {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  if (unlocked) sessions.start(vault.id, 'handle' as SessionId);
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <VaultSessionsProvider sessions={sessions}>
          <ul>
            <VaultCard vault={vault} onDelete={onDelete} />
          </ul>
        </VaultSessionsProvider>
      ),
    },
  ]);
  render(<RouterProvider router={router} />);
  return onDelete;
}

it('names the vault in a level-2 heading (below the dashboard h1), the full name as its title', () => {
  renderCard(false);
  const heading = screen.getByRole('heading', { level: 2 });
  const link = screen.getByRole('link', { name: LONG_NAME });
  expect(heading.contains(link)).toBe(true);
  expect(link.getAttribute('title')).toBe(LONG_NAME);
  expect(link.getAttribute('href')).toBe(`/vault/${vault.id}`);
  expect(screen.queryByRole('button', { name: /Delete vault/ })).toBeNull();
  screen.getByText('Locked');
});

it('puts the delete button beside the Unlocked badge, in the same row, not positioned over it', async () => {
  const onDelete = renderCard(true);
  const remove = screen.getByRole('button', { name: `Delete vault ${LONG_NAME}` });
  const badge = screen.getByText('Unlocked');
  expect(remove.parentElement).toBe(badge.parentElement);
  expect(remove.className).not.toMatch(/\babsolute\b/);
  await userEvent.click(remove);
  expect(onDelete).toHaveBeenCalledWith(vault);
});

function renderVault(v: Vault) {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <VaultSessionsProvider sessions={sessions}>
          <ul>
            <VaultCard vault={v} onDelete={vi.fn()} />
          </ul>
        </VaultSessionsProvider>
      ),
    },
  ]);
  render(<RouterProvider router={router} />);
  const terms = screen.getAllByRole('term').map((t) => t.textContent);
  const values = screen.getAllByRole('definition').map((d) => d.textContent);
  return Object.fromEntries(terms.map((t, i) => [t, values[i]]));
}

it('shows a file vault its size, and says the last access is this device’s (issue 25)', () => {
  expect(renderVault({ ...vault, total_size: 3 * 1024 * 1024 })).toEqual({
    Files: '2 files',
    Size: '3.0 MB',
    'Last accessed on this device': 'Never',
  });
});

it('shows a secrets vault no size: its secrets are not in total_size (never "0 B")', () => {
  const secrets: Vault = { ...vault, vault_type: 'secrets', file_count: 0, secrets_count: 3 };
  expect(renderVault(secrets)).toEqual({
    Secrets: '3 secrets',
    'Last accessed on this device': 'Never',
  });
});
