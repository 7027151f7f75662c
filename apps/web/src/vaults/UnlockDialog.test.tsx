// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, it, vi } from 'vitest';
import type { ProviderType, Vault } from '@sealvault/protocol';
import { UnlockDialog } from './UnlockDialog.tsx';

// No Worker in jsdom: the dialog only warms the crypto pool up, which these tests never use.
const warmUpCrypto = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', () => ({ warmUpCrypto }));
vi.mock('../crypto/vaultKeys.ts', () => ({ vaultKeys: { unlock: vi.fn(), lock: vi.fn() } }));
// The records are fetched while the password is typed (files/deviceCache.ts): no server here.
const prefetchFileRecords = vi.hoisted(() => vi.fn());
vi.mock('../files/deviceCache.ts', () => ({ prefetchFileRecords }));

afterEach(cleanup);

const vaultOn = (provider_type: ProviderType): Vault => ({
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Tax records',
  description: null,
  vault_type: 'files',
  provider_type,
  storage_folder: null,
  is_hidden: false,
  last_accessed: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  file_count: 0,
  secrets_count: 0,
  total_size: 0,
  key: { format: 'vf1', slots: [] } as unknown as Vault['key'],
  key_revision: 0,
});

function renderAt(vault: Vault, onCancel = vi.fn()) {
  const router = createMemoryRouter(
    [
      { path: '/vault/:id', element: <UnlockDialog vault={vault} open onCancel={onCancel} /> },
      { path: '/dashboard', element: <p>Settings page</p> },
    ],
    { initialEntries: [`/vault/${vault.id}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

for (const [id, name] of [
  ['googledrive', 'Google Drive'],
  ['dropbox', 'Dropbox'],
  ['onedrive', 'OneDrive'],
] as const) {
  it(`asks to connect ${name} first, instead of the password`, () => {
    renderAt(vaultOn(id));
    const dialog = screen.getByRole('dialog', { name: 'Unlock Vault' });
    expect(
      within(dialog).getByText(`Please connect to ${name} to unlock this vault.`),
    ).toBeTruthy();
    const prompt = within(dialog).getByRole('region', { name: `${name} Not Connected` });
    expect(prompt.textContent).toContain(
      `You must connect your ${name} account to access this vault's files.`,
    );
    expect(within(dialog).queryByLabelText('Vault password')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Unlock' })).toBeNull();
    expect(warmUpCrypto).not.toHaveBeenCalled();
    expect(prefetchFileRecords).not.toHaveBeenCalled();
  });
}

it('sends the user to Settings to connect', async () => {
  const router = renderAt(vaultOn('googledrive'));
  await userEvent.click(screen.getByRole('link', { name: 'Go to Settings' }));
  expect(router.state.location.pathname + router.state.location.search).toBe(
    '/dashboard?view=settings',
  );
});

it('cancels like the password form does', async () => {
  const onCancel = vi.fn();
  renderAt(vaultOn('dropbox'), onCancel);
  await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onCancel).toHaveBeenCalledTimes(1);
});

it('asks for the password of a vault in our server storage', () => {
  renderAt(vaultOn('server'));
  const dialog = screen.getByRole('dialog', { name: 'Unlock Vault' });
  expect(within(dialog).getByLabelText('Vault password')).toBeTruthy();
  expect(within(dialog).getByRole('button', { name: 'Unlock' })).toBeTruthy();
  expect(within(dialog).queryByText(/Not Connected/)).toBeNull();
  // Its records are on their way while the password is typed.
  expect(prefetchFileRecords).toHaveBeenCalledWith(vaultOn('server').id);
});
