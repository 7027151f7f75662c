// @vitest-environment happy-dom
// The vault page's prompt for a cloud account that is no longer connected (issue 26): it follows
// the connection store (a token forgotten by the storage layer, a Disconnect in Settings or in
// another tab), offers Settings' Connect right there, and once the account is back, goes away
// and has the vault's files read again.
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ProviderType } from '@sealvault/protocol';
import { setStorageConfig } from '../storage/cloud/config.ts';
import { connections, type CloudId } from '../storage/cloud/connections.ts';
import { StorageError } from '../storage/provider.ts';
import { CloudConnectionPrompt } from './CloudConnectionPrompt.tsx';
import { isNotConnected, notConnectedError } from './cloudConnection.ts';
import { useLostConnection } from './useCloudConnection.ts';
import { filesKey } from './useFiles.ts';

// The sign-in popup is the provider's; here Connect only moves the store as connect.ts does.
const connectCloud = vi.hoisted(() => vi.fn<(id: string) => Promise<boolean>>());
vi.mock(import('../storage/cloud/connect.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  connectCloud,
}));

const VAULT = '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21';
const token = { dropbox: { accessToken: 'a', expiresAt: Date.now() + 3_600_000 } } as const;
const driveToken = { access_token: 'g', expires_at: Date.now() + 3_600_000 };
const save = (id: CloudId) =>
  id === 'dropbox' ? connections.save('dropbox', token.dropbox) : connections.save(id, driveToken);

beforeEach(() => {
  localStorage.clear();
  setStorageConfig({
    dropbox: {
      app_key: 'key',
      auth_url: 'https://dropbox.test/oauth2/authorize',
      api_url: 'https://api.dropbox.test',
      content_url: 'https://content.dropbox.test',
    },
    googledrive: {
      client_id: 'client',
      oauth_url: 'https://accounts.test/auth',
      revoke_url: 'https://accounts.test/revoke',
      api_url: 'https://drive.test',
    },
    onedrive: null,
  });
  connectCloud.mockReset();
});
afterEach(() => {
  cleanup();
  connections.setPassing('dropbox', null);
  connections.setPassing('googledrive', null);
});

/** The page as FileBrowser wires it: the prompt above the file list, which counts its loads. */
function Page({ provider, loads }: { provider: ProviderType; loads: () => void }) {
  const lost = useLostConnection(VAULT, provider);
  const files = useQuery({
    queryKey: filesKey(VAULT),
    queryFn: () => {
      loads();
      return Promise.resolve(['notes.txt']);
    },
  });
  return (
    <>
      <h2 tabIndex={-1}>Files</h2>
      {lost && (
        <CloudConnectionPrompt
          connection={lost}
          onConnected={() => screen.getByRole('heading', { name: 'Files' }).focus()}
        />
      )}
      <p>{files.data?.join()}</p>
    </>
  );
}

function renderPage(provider: ProviderType) {
  const loads = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Page provider={provider} loads={loads} />
    </QueryClientProvider>,
  );
  return loads;
}

for (const [id, name] of [
  ['dropbox', 'Dropbox'],
  ['googledrive', 'Google Drive'],
] as const) {
  it(`shows the spec's prompt once ${name} is forgotten, and drops it once connected again`, async () => {
    save(id);
    const loads = renderPage(id);
    await screen.findByText('notes.txt');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(loads).toHaveBeenCalledTimes(1);

    // The provider refused the token and the renewal failed: the storage layer forgets it.
    act(() => connections.clear(id));
    const prompt = screen.getByRole('alert', { name: `${name} Not Connected` });
    expect(prompt.textContent).toContain(`Please connect ${name} to upload/download/delete files.`);
    const connect = screen.getByRole('button', { name: `Connect ${name}` });
    expect(connect.hasAttribute('disabled')).toBe(false);
    // The file list, which our server holds, stays.
    expect(screen.getByText('notes.txt')).toBeTruthy();

    // Connected again (here, in Settings, or in another tab): the prompt goes, the files reload.
    act(() => save(id));
    expect(screen.queryByRole('alert')).toBeNull();
    await vi.waitFor(() => expect(loads).toHaveBeenCalledTimes(2));
  });
}

it("follows another tab's change of the connection (the 'storage' event)", () => {
  save('dropbox');
  renderPage('dropbox');
  localStorage.removeItem('sealvault.dropbox');
  act(() => {
    window.dispatchEvent(new StorageEvent('storage', { key: 'sealvault.dropbox' }));
  });
  expect(screen.getByRole('alert', { name: 'Dropbox Not Connected' })).toBeTruthy();
});

it('connects right there: Connecting... while the popup is open, then the prompt is gone', async () => {
  renderPage('dropbox');
  let finish!: (ok: boolean) => void;
  connectCloud.mockImplementation((id) => {
    connections.setPassing(id as CloudId, { status: 'connecting' });
    return new Promise((resolve) => {
      finish = (ok) => {
        if (ok) save(id as CloudId);
        resolve(ok);
      };
    });
  });
  await userEvent.click(screen.getByRole('button', { name: 'Connect Dropbox' }));
  expect(connectCloud).toHaveBeenCalledWith('dropbox');
  const busy = screen.getByRole('button', { name: 'Connecting...' });
  expect(busy.hasAttribute('disabled')).toBe(true);
  await act(() => {
    finish(true);
    return Promise.resolve();
  });
  expect(screen.queryByRole('alert')).toBeNull();
  // The button went with the prompt: the focus is put on the file list's heading.
  expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Files' }));
});

it("says why a connection failed, in Settings' words, and Connect stays live", async () => {
  renderPage('googledrive');
  const blocked =
    'Authentication failed. The popup may have been blocked by your browser. Please allow popups for this site and try again.';
  connectCloud.mockImplementation((id) => {
    connections.setPassing(id as CloudId, { status: 'failed', error: blocked });
    return Promise.resolve(false);
  });
  await userEvent.click(screen.getByRole('button', { name: 'Connect Google Drive' }));
  const prompt = screen.getByRole('alert', { name: 'Google Drive Not Connected' });
  expect(prompt.textContent).toContain(blocked);
  expect(
    screen.getByRole('button', { name: 'Connect Google Drive' }).hasAttribute('disabled'),
  ).toBe(false);
});

it('shows nothing for a vault on our server or in this browser', () => {
  renderPage('server');
  renderPage('local');
  expect(screen.queryByRole('alert')).toBeNull();
});

it("tells a provider's 'not connected' failure from the others", () => {
  expect(isNotConnected(new StorageError('unavailable', 'Dropbox not connected'))).toBe(true);
  expect(isNotConnected(new StorageError('unavailable', 'Google Drive not connected'))).toBe(true);
  expect(isNotConnected(new StorageError('unavailable', 'OneDrive not connected'))).toBe(true);
  expect(isNotConnected(new StorageError('failed', 'Dropbox not connected'))).toBe(false);
  expect(isNotConnected(new StorageError('unavailable', 'Failed to download from Dropbox'))).toBe(
    false,
  );
  expect(isNotConnected(new Error('Dropbox not connected'))).toBe(false);
});

it('refuses a delete on an account that is not connected before anything is removed', () => {
  expect(notConnectedError('dropbox')?.message).toBe('Dropbox not connected');
  expect(notConnectedError('onedrive')?.message).toBe('OneDrive not connected');
  save('dropbox');
  expect(notConnectedError('dropbox')).toBeNull();
  expect(notConnectedError('server')).toBeNull();
});
