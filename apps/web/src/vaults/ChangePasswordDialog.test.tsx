// @vitest-environment happy-dom
// The vault password change: each field says what is wrong with it, a current password that does
// not open the key slot is reported on that field, and the choice to rotate the keys says what a
// change without rotation does not protect against.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { CryptoError, type SessionId } from '@sealvault/crypto';
import type { Vault } from '@sealvault/protocol';
import { ChangePasswordDialog, withoutRotationText } from './ChangePasswordDialog.tsx';
import { VaultSessionsProvider } from './sessionContext.tsx';
import { createVaultSessions } from './vaultSessions.ts';

const change = vi.hoisted(() => ({ changePasswordOnly: vi.fn(), rotateKeys: vi.fn() }));
vi.mock('./manifest/passwordChange.ts', () => change);
vi.mock('../crypto/client.ts', () => ({
  cryptoClient: () => ({ closeSession: () => Promise.resolve() }),
}));
vi.mock('../crypto/vaultKeys.ts', () => ({ vaultKeys: { lock: vi.fn() } }));

afterEach(cleanup);

const vault = {
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Tax records',
  key: { format: 'vf1', slots: [] },
  key_revision: 0,
} as unknown as Vault;

function show() {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  sessions.start(vault.id, 'old-session' as SessionId);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VaultSessionsProvider sessions={sessions}>
        <ChangePasswordDialog vault={vault} open onOpenChange={vi.fn()} />
      </VaultSessionsProvider>
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Change vault password' });
  const field = (label: string) => within(dialog).getByLabelText(label);
  const errorOf = (label: string) =>
    document.getElementById(field(label).getAttribute('aria-describedby') ?? '')?.textContent;
  return { dialog, field, errorOf, sessions, user: userEvent.setup() };
}

it('shows every invalid field with its own message and focuses the first', async () => {
  const { dialog, field, errorOf, user } = show();
  await user.type(field('New password'), 'short');
  await user.type(field('Confirm new password'), 'other');
  await user.click(within(dialog).getByRole('button', { name: 'Change password and rotate keys' }));
  await vi.waitFor(() => expect(errorOf('Current password')).toBe('Current password is required'));
  expect(errorOf('New password')).toBe('Password must be at least 8 characters');
  expect(errorOf('Confirm new password')).toBe('Passwords do not match');
  expect(document.activeElement).toBe(field('Current password'));
  expect(change.rotateKeys).not.toHaveBeenCalled();
});

it("reports a current password that does not open the vault as 'Invalid password' on it", async () => {
  change.rotateKeys.mockRejectedValueOnce(new CryptoError('INVALID_PASSWORD'));
  const { dialog, field, errorOf, user } = show();
  await user.type(field('Current password'), 'not-the-password');
  await user.type(field('New password'), 'a-new-long-password');
  await user.type(field('Confirm new password'), 'a-new-long-password');
  await user.click(within(dialog).getByRole('button', { name: 'Change password and rotate keys' }));
  await vi.waitFor(() => expect(errorOf('Current password')).toBe('Invalid password'));
  expect(field('New password').getAttribute('aria-invalid')).toBeNull();
});

it('rotates by default and makes the new keys the vault session', async () => {
  change.rotateKeys.mockResolvedValueOnce({ vault, session: 'new-session' });
  const { dialog, field, sessions, user } = show();
  await user.type(field('Current password'), 'the-old-password');
  await user.type(field('New password'), 'a-new-long-password');
  await user.type(field('Confirm new password'), 'a-new-long-password');
  await user.click(within(dialog).getByRole('button', { name: 'Change password and rotate keys' }));
  await within(dialog).findByText(/the keys were rotated/);
  expect(change.rotateKeys).toHaveBeenCalledWith(
    vault,
    'old-session',
    'the-old-password',
    'a-new-long-password',
    expect.any(Function),
  );
  expect(sessions.handleOf(vault.id)).toBe('new-session');
});

it('says what a change without rotation does not protect against, then changes the slot only', async () => {
  change.changePasswordOnly.mockResolvedValueOnce(vault);
  const { dialog, field, user } = show();
  await user.click(field("Rotate the vault's keys too"));
  expect(within(dialog).getByText(withoutRotationText)).toBeTruthy();
  await user.type(field('Current password'), 'the-old-password');
  await user.type(field('New password'), 'a-new-long-password');
  await user.type(field('Confirm new password'), 'a-new-long-password');
  await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
  await within(dialog).findByText(/only the new password unlocks this vault\.$/);
  expect(change.changePasswordOnly).toHaveBeenCalledWith(
    vault,
    'old-session',
    'the-old-password',
    'a-new-long-password',
  );
});
