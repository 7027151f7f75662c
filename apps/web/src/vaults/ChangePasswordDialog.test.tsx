// @vitest-environment jsdom
// The vault password change: each field says what is wrong with it, and a current password that
// does not open the key slot is reported on that field.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import type { Vault } from '@sealvault/protocol';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';

const changePassword = vi.hoisted(() => vi.fn());
vi.mock('../crypto/vaultKeys.ts', () => ({ vaultKeys: { changePassword } }));

afterEach(cleanup);

const vault = {
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Tax records',
  key: { format: 'vf1', slots: [] },
  key_revision: 0,
} as unknown as Vault;

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ChangePasswordDialog vault={vault} open onOpenChange={vi.fn()} />
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Change vault password' });
  const field = (label: string) => within(dialog).getByLabelText(label);
  const errorOf = (label: string) =>
    document.getElementById(field(label).getAttribute('aria-describedby') ?? '')?.textContent;
  return { dialog, field, errorOf, user: userEvent.setup() };
}

it('shows every invalid field with its own message and focuses the first', async () => {
  const { dialog, field, errorOf, user } = show();
  await user.type(field('New password'), 'short');
  await user.type(field('Confirm new password'), 'other');
  await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
  await vi.waitFor(() => expect(errorOf('Current password')).toBe('Current password is required'));
  expect(errorOf('New password')).toBe('Password must be at least 8 characters');
  expect(errorOf('Confirm new password')).toBe('Passwords do not match');
  expect(document.activeElement).toBe(field('Current password'));
  expect(changePassword).not.toHaveBeenCalled();
});

it("reports a current password that does not open the vault as 'Invalid password' on it", async () => {
  changePassword.mockRejectedValueOnce(new Error('decryption failed'));
  const { dialog, field, errorOf, user } = show();
  await user.type(field('Current password'), 'not-the-password');
  await user.type(field('New password'), 'a-new-long-password');
  await user.type(field('Confirm new password'), 'a-new-long-password');
  await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
  await vi.waitFor(() => expect(errorOf('Current password')).toBe('Invalid password'));
  expect(field('New password').getAttribute('aria-invalid')).toBeNull();
});
