// @vitest-environment happy-dom
// The vault's passkeys dialog (issue 30): each passkey listed with "Remove passkey <name>", the
// add form (name, vault password, "Add a passkey"), and why nothing can be added.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CryptoError, type SessionId } from '@sealvault/crypto';
import type { KeySlot, Vault } from '@sealvault/protocol';
import { createVaultSessions } from '../vaultSessions.ts';
import { VaultSessionsProvider } from '../sessionContext.tsx';
import { PasskeysDialog, passkeysDialogTexts } from './PasskeysDialog.tsx';
import { PasskeyError, passkeyTexts } from './webauthn.ts';

vi.mock('../../crypto/client.ts', () => ({ cryptoClient: vi.fn() }));
vi.mock('../../crypto/vaultKeys.ts', () => ({ vaultKeys: { unlock: vi.fn(), lock: vi.fn() } }));
const webauthn = vi.hoisted(() => ({ prfSupported: vi.fn() }));
vi.mock('./webauthn.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ...webauthn,
}));
const ops = vi.hoisted(() => ({ addPasskey: vi.fn(), removePasskey: vi.fn() }));
vi.mock('./vaultPasskeys.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ...ops,
}));

afterEach(cleanup);
beforeEach(() => vi.clearAllMocks());

const slot = (n: number, name: string): KeySlot => ({
  id: `1b7c4a2e-0d3f-4e5a-8b6c-7d8e9f0a1b2${n}`,
  kind: 'passkey',
  kdf: { alg: 'prf-hkdf-sha256' },
  salt: '',
  wrapped: '',
  commit: '',
  credentialId: `cred${n}`,
  name,
});
const password: KeySlot = {
  id: 'pw',
  kind: 'password',
  kdf: { alg: 'argon2id', m: 65536, t: 3, p: 1 },
  salt: '',
  wrapped: '',
};
const vaultWith = (slots: KeySlot[], key_revision = 3): Vault => ({
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Tax records',
  description: null,
  vault_type: 'files',
  provider_type: 'server',
  storage_folder: null,
  is_hidden: false,
  last_accessed: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  file_count: 0,
  secrets_count: 0,
  total_size: 0,
  key: { format: 'vf1', slots: [password, ...slots] },
  key_revision,
});

function renderDialog(vault: Vault) {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  sessions.start(vault.id, 'a'.repeat(32) as SessionId);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VaultSessionsProvider sessions={sessions}>
        <PasskeysDialog vault={vault} open onOpenChange={vi.fn()} userName="ana@example.com" />
      </VaultSessionsProvider>
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog', { name: passkeysDialogTexts.title });
}

it('lists each passkey with its remove button, and removes one', async () => {
  webauthn.prfSupported.mockResolvedValue(true);
  const vault = vaultWith([slot(1, 'Laptop'), slot(2, 'Phone')]);
  ops.removePasskey.mockResolvedValue(vaultWith([slot(2, 'Phone')], 4));
  const dialog = renderDialog(vault);
  const list = within(dialog).getByRole('list', { name: 'Passkeys that unlock this vault' });
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(['LaptopRemove', 'PhoneRemove']);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Remove passkey Laptop' }));
  expect(ops.removePasskey).toHaveBeenCalledWith(vault, 'a'.repeat(32), slot(1, 'Laptop').id);
  expect((await within(dialog).findByRole('status')).textContent).toBe(
    passkeysDialogTexts.removed('Laptop'),
  );
  expect(within(dialog).queryByRole('button', { name: 'Remove passkey Laptop' })).toBeNull();
  // The password is no passkey: never listed, never removable.
  expect(within(dialog).queryByRole('button', { name: /Remove passkey pw/ })).toBeNull();
});

it('adds a passkey under the name given, with the vault password', async () => {
  webauthn.prfSupported.mockResolvedValue(true);
  const vault = vaultWith([]);
  ops.addPasskey.mockResolvedValue(vaultWith([slot(1, 'Work key')], 4));
  const dialog = renderDialog(vault);
  expect(within(dialog).getByText(passkeysDialogTexts.none)).toBeTruthy();
  const name = within(dialog).getByLabelText<HTMLInputElement>('Passkey name');
  expect(name.value).toMatch(/^Passkey added \d{1,2} [A-Z][a-z]{2} \d{4}$/);
  await userEvent.clear(name);
  await userEvent.type(name, 'Work key');
  await userEvent.type(within(dialog).getByLabelText('Vault password'), 'hunter2');
  const add = within(dialog).getByRole('button', { name: 'Add a passkey' });
  await waitFor(() => expect((add as HTMLButtonElement).disabled).toBe(false));
  await userEvent.click(add);
  expect(ops.addPasskey).toHaveBeenCalledWith(vault, 'a'.repeat(32), {
    password: 'hunter2',
    name: 'Work key',
    userName: 'ana@example.com',
  });
  expect((await within(dialog).findByRole('status')).textContent).toBe(
    passkeysDialogTexts.added('Work key'),
  );
  expect(within(dialog).getByRole('button', { name: 'Remove passkey Work key' })).toBeTruthy();
});

it('says a wrong password on its field, and a passkey without PRF in an alert', async () => {
  webauthn.prfSupported.mockResolvedValue(true);
  ops.addPasskey.mockRejectedValueOnce(new CryptoError('INVALID_PASSWORD'));
  const dialog = renderDialog(vaultWith([]));
  await userEvent.type(within(dialog).getByLabelText('Vault password'), 'wrong');
  const add = within(dialog).getByRole('button', { name: 'Add a passkey' });
  await waitFor(() => expect((add as HTMLButtonElement).disabled).toBe(false));
  await userEvent.click(add);
  const field = within(dialog).getByLabelText('Vault password');
  await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
  expect(within(dialog).getByText('Invalid password')).toBeTruthy();

  ops.addPasskey.mockRejectedValueOnce(new PasskeyError(passkeyTexts.notPrf));
  await userEvent.click(add);
  expect((await within(dialog).findByText(passkeyTexts.notPrf)).getAttribute('role')).toBe('alert');
});

it('says why nothing can be added: no PRF in this browser', async () => {
  webauthn.prfSupported.mockResolvedValue(false);
  const dialog = renderDialog(vaultWith([slot(1, 'Laptop')]));
  expect(await within(dialog).findByText(passkeyTexts.noPrf)).toBeTruthy();
  expect(within(dialog).queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  // Removing still works without PRF.
  expect(within(dialog).getByRole('button', { name: 'Remove passkey Laptop' })).toBeTruthy();
});
