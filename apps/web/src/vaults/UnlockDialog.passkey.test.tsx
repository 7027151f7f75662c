// @vitest-environment happy-dom
// The unlock dialog's passkey (issue 30): "Unlock with a passkey" where the browser has PRF and
// the vault has a passkey, else one line saying why only the password is offered.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CryptoError, type SessionId } from '@sealvault/crypto';
import type * as Protocol from '@sealvault/protocol';
import type { KeySlot, Vault } from '@sealvault/protocol';
import { createVaultSessions } from './vaultSessions.ts';
import { VaultSessionsProvider } from './sessionContext.tsx';
import { UnlockDialog, passkeyRefusedText } from './UnlockDialog.tsx';
import { PasskeyError, passkeyTexts } from './passkeys/webauthn.ts';

const warmUpCrypto = vi.hoisted(() => vi.fn());
vi.mock('../crypto/client.ts', () => ({ warmUpCrypto }));
vi.mock('../crypto/vaultKeys.ts', () => ({ vaultKeys: { unlock: vi.fn(), lock: vi.fn() } }));
vi.mock('../files/deviceCache.ts', () => ({ prefetchFileRecords: vi.fn() }));
const webauthn = vi.hoisted(() => ({ prfSupported: vi.fn(), assertVaultPasskey: vi.fn() }));
vi.mock('./passkeys/webauthn.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ...webauthn,
}));
const manifest = vi.hoisted(() => ({ unlockChecked: vi.fn() }));
vi.mock('./manifest/vaultManifest.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ...manifest,
}));
const api = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('@sealvault/protocol', async (importOriginal) => {
  const real = await importOriginal<typeof Protocol>();
  return { ...real, vaultsApi: { ...real.vaultsApi, get: api.get } };
});

afterEach(cleanup);
beforeEach(() => vi.clearAllMocks());

const salt = new Uint8Array(32).fill(3);
const passkeySlot: KeySlot = {
  id: '1b7c4a2e-0d3f-4e5a-8b6c-7d8e9f0a1b2c',
  kind: 'passkey',
  kdf: { alg: 'prf-hkdf-sha256' },
  salt: btoa(String.fromCharCode(...salt)),
  wrapped: '',
  commit: '',
  credentialId: 'AAECAwQFBgcICQoLDA0ODw',
  name: 'Passkey added 27 Nov 2026',
};
const vaultWith = (slots: KeySlot[]): Vault => ({
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
  key: { format: 'vf1', slots },
  key_revision: 0,
});

function renderDialog(vault: Vault) {
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  api.get.mockResolvedValue({ vault });
  const router = createMemoryRouter(
    [{ path: '/vault/:id', element: <UnlockDialog vault={vault} open onCancel={vi.fn()} /> }],
    { initialEntries: [`/vault/${vault.id}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <VaultSessionsProvider sessions={sessions}>
        <RouterProvider router={router} />
      </VaultSessionsProvider>
    </QueryClientProvider>,
  );
  return { sessions, dialog: screen.getByRole('dialog', { name: 'Unlock Vault' }) };
}

it('offers "Unlock with a passkey" and opens the vault with the passkey used', async () => {
  webauthn.prfSupported.mockResolvedValue(true);
  const prf = new Uint8Array(32).fill(9);
  webauthn.assertVaultPasskey.mockResolvedValue({ credentialId: passkeySlot.credentialId, prf });
  const handle: SessionId = 'f'.repeat(32) as SessionId;
  manifest.unlockChecked.mockResolvedValue(handle);
  const vault = vaultWith([passkeySlot]);
  const { sessions, dialog } = renderDialog(vault);
  const button = await within(dialog).findByRole('button', { name: 'Unlock with a passkey' });
  // The password stays, as the fallback.
  expect(within(dialog).getByLabelText('Vault password')).toBeTruthy();
  await userEvent.click(button);
  await waitFor(() => expect(sessions.isUnlocked(vault.id)).toBe(true));
  const [creds] = webauthn.assertVaultPasskey.mock.calls[0] as [
    { credentialId: string; salt: Uint8Array }[],
  ];
  expect(creds).toEqual([{ credentialId: passkeySlot.credentialId, salt }]);
  const [used, secret] = manifest.unlockChecked.mock.calls[0] as [
    Vault,
    { credentialId: string; prf: Uint8Array },
  ];
  expect(used).toEqual(vault);
  expect(secret.credentialId).toBe(passkeySlot.credentialId);
  expect([...secret.prf]).toEqual(new Array(32).fill(9));
  // The page's copy of the PRF output is wiped once handed over.
  expect(prf.every((b) => b === 0)).toBe(true);
});

it('says why when the browser has no PRF, and keeps the password only', async () => {
  webauthn.prfSupported.mockResolvedValue(false);
  const { dialog } = renderDialog(vaultWith([passkeySlot]));
  expect(await within(dialog).findByText(passkeyTexts.noPrf)).toBeTruthy();
  expect(within(dialog).queryByRole('button', { name: 'Unlock with a passkey' })).toBeNull();
  expect(within(dialog).getByLabelText('Vault password')).toBeTruthy();
});

it('says why when the vault has no passkey', async () => {
  webauthn.prfSupported.mockResolvedValue(true);
  const { dialog } = renderDialog(vaultWith([]));
  expect(await within(dialog).findByText(passkeyTexts.noSlots)).toBeTruthy();
  expect(within(dialog).queryByRole('button', { name: 'Unlock with a passkey' })).toBeNull();
});

it('says so when the passkey prompt is dismissed or the passkey does not open the vault', async () => {
  webauthn.prfSupported.mockResolvedValue(true);
  webauthn.assertVaultPasskey.mockRejectedValueOnce(new PasskeyError(passkeyTexts.cancelled));
  const { dialog, sessions } = renderDialog(vaultWith([passkeySlot]));
  const button = await within(dialog).findByRole('button', { name: 'Unlock with a passkey' });
  await userEvent.click(button);
  expect((await within(dialog).findByRole('alert')).textContent).toBe(passkeyTexts.cancelled);

  webauthn.assertVaultPasskey.mockResolvedValueOnce({
    credentialId: passkeySlot.credentialId,
    prf: new Uint8Array(32),
  });
  manifest.unlockChecked.mockRejectedValueOnce(new CryptoError('INVALID_PASSWORD'));
  await userEvent.click(button);
  await waitFor(() =>
    expect(within(dialog).getByRole('alert').textContent).toBe(passkeyRefusedText),
  );
  expect(sessions.isUnlocked(vaultWith([]).id)).toBe(false);
});
