// @vitest-environment happy-dom
// The Passkeys panel (issue 30): the list, a name refused before the browser is asked, and the
// server's refusal to remove the last way to sign in shown in the dialog, nothing removed.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { passkeyMessages } from '@sealvault/protocol';
import { PasskeysPanel } from './PasskeysPanel.tsx';

const api = vi.hoisted(() => ({
  listPasskeys: vi.fn(),
  addPasskey: vi.fn(),
  renamePasskey: vi.fn(),
  removePasskey: vi.fn(),
  passkeysSupported: vi.fn(() => true),
}));
vi.mock('../auth/passkeys.ts', () => api);

const laptop = {
  id: 'p1',
  name: 'Laptop',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  backedUp: true,
};

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  api.passkeysSupported.mockReturnValue(true);
  api.listPasskeys.mockResolvedValue([laptop]);
});
afterEach(cleanup);

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PasskeysPanel />
    </QueryClientProvider>,
  );
}

it('lists passkeys, and refuses an empty name before asking the browser', async () => {
  const user = userEvent.setup();
  renderPanel();
  const list = await screen.findByRole('list', { name: 'Your passkeys' });
  expect(within(list).getByText('Laptop')).toBeTruthy();
  expect(within(list).getByText('Synced')).toBeTruthy();
  expect(within(list).getByText(/Never used/)).toBeTruthy();

  await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
  const dialog = screen.getByRole('dialog', { name: 'Add a passkey' });
  await user.clear(within(dialog).getByLabelText('Passkey name'));
  await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
  expect(await within(dialog).findByText('Please enter a name for this passkey.')).toBeTruthy();
  expect(api.addPasskey).not.toHaveBeenCalled();

  await user.type(within(dialog).getByLabelText('Passkey name'), '  YubiKey ');
  api.addPasskey.mockResolvedValue({ ...laptop, id: 'p2', name: 'YubiKey' });
  await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
  expect(api.addPasskey).toHaveBeenCalledWith('YubiKey');
});

it('shows why the last way to sign in cannot be removed', async () => {
  const user = userEvent.setup();
  api.removePasskey.mockRejectedValue(new Error(passkeyMessages.lastSignInMethod));
  renderPanel();
  await user.click(await screen.findByRole('button', { name: 'Remove passkey Laptop' }));
  const dialog = screen.getByRole('dialog', { name: 'Remove passkey?' });
  await user.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
  expect(await within(dialog).findByText(passkeyMessages.lastSignInMethod)).toBeTruthy();
  expect(api.removePasskey).toHaveBeenCalledWith('p1');
  expect(screen.getByRole('list', { name: 'Your passkeys', hidden: true })).toBeTruthy();
});

it('says so where the browser has no passkeys', async () => {
  api.passkeysSupported.mockReturnValue(false);
  renderPanel();
  expect(await screen.findByText('This browser cannot use passkeys.')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
});
