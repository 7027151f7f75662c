// @vitest-environment happy-dom
// A rename the server fails shows the spec's 'Failed to rename file' in a toast, never the raw
// text of a 500; a refusal meant for the user (a 4xx with our error shape) is shown as the server
// wrote it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Vault, VaultFile } from '@sealvault/protocol';
import { Toaster } from '../components/Toaster.tsx';
import { FileBrowser } from './FileBrowser.tsx';

// No Worker in jsdom: names "decrypt" to one fixed name, and the new name "encrypts" to a stub.
vi.mock('../crypto/client.ts', () => ({
  cryptoClient: () => ({
    decryptMetas: (_s: unknown, items: unknown[]) =>
      Promise.resolve(
        items.map(() => ({ name: 'notes.txt', mime: 'text/plain', size: 12, modified: 0 })),
      ),
    encryptMeta: () => Promise.resolve('enc-meta'),
    lookupName: () => Promise.resolve('name-lookup'),
  }),
}));
vi.mock('../vaults/sessionContext.tsx', () => ({ sessionOf: () => 'session' }));
// The manifest check finds nothing wrong (its rules are tested in vaults/manifest).
vi.mock('../vaults/manifest/vaultManifest.ts', () => ({
  checkAgainstManifest: () => Promise.resolve([]),
  commitFile: () => Promise.resolve(),
  recordSig: (r: VaultFile) => r.enc_meta,
  knownFileDigests: () => undefined,
  fileDigest: () => Promise.resolve('digest'),
}));
// No IndexedDB here: this device has learnt nothing yet (files/deviceCache.ts).
vi.mock('./deviceCache.ts', () => ({
  loadLearnt: () => Promise.resolve(new Map()),
  saveLearnt: () => Promise.resolve(),
  takeFileRecords: () => undefined,
}));
// The vault was unlocked at key revision 0 ([Note: key revision of a write]).
vi.mock('../vaults/manifest/keyRevision.ts', () => ({
  withCurrentKey: (_vaultId: string, write: (rev: number) => Promise<unknown>) => write(0),
}));
vi.mock('../storage/providers.ts', () => ({
  registerVaultStorage: () => undefined,
  // The page's own vault record is the one the list reads (no move to follow: vaults/move/follow.ts).
  providerTypeOf: () => undefined,
  storageOf: () => ({ type: 'server', capabilities: { deviceOnly: false } }),
}));

const vault = {
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Tax records',
  provider_type: 'server',
} as Vault;

const record: VaultFile = {
  id: '0b7c9d2e-4f61-4a3b-8c5d-6e7f8a9b0c1d',
  enc_meta: 'x',
  name_lookup: 'y',
  wrapped_key: 'z',
  ciphertext_size: 100,
  checksum: 'c',
  checksum_algorithm: 'sha256',
  storage_ref: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  trashed_at: null,
  purged_at: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server's answer to the rename's PATCH; everything else answers as a working server. */
function serve(renameAnswer: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'PATCH') return Promise.resolve(renameAnswer());
      if (url.endsWith('/files')) return Promise.resolve(json({ files: [record] }));
      if (url === '/api/limits')
        return Promise.resolve(json({ max_vaults: 2, max_file_size_mb: 2, plan_name: 'Free' }));
      return Promise.resolve(json({ error: { code: 'not_found', message: 'Not found' } }, 404));
    }),
  );
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', () => undefined); // the window virtualizer's; jsdom has none
  // jsdom has no ResizeObserver; the list only measures its width with it.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  toast.dismiss(); // toasts are global: none is replayed into the next test's Toaster
  cleanup();
  vi.unstubAllGlobals();
});

/** The text of the toast that reports the failure. */
const toastText = async () =>
  (await within(screen.getByRole('region', { name: /^Notifications/ })).findByRole('listitem'))
    .textContent;

async function renameTo(name: string) {
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter>
        <FileBrowser vault={vault} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Rename notes.txt' }));
  const input = screen.getByRole('textbox', { name: 'New name for notes.txt' });
  await user.clear(input);
  await user.type(input, `${name}{Enter}`);
}

it("shows 'Failed to rename file' for a 500 whose body is text/plain 'Internal Server Error'", async () => {
  serve(
    () =>
      new Response('Internal Server Error', {
        status: 500,
        statusText: 'Internal Server Error',
        headers: { 'content-type': 'text/plain' },
      }),
  );
  await renameTo('taxes');
  expect(await toastText()).toBe('Failed to rename file');
  expect(screen.queryByText(/Internal Server Error/)).toBeNull();
});

it("shows 'Failed to rename file' for the server's generic 500 and for a lost connection", async () => {
  serve(() =>
    json({ error: { code: 'internal', message: 'Something went wrong on our side.' } }, 500),
  );
  await renameTo('taxes');
  expect(await toastText()).toBe('Failed to rename file');
  toast.dismiss();
  cleanup();

  serve(() => {
    throw new TypeError('Failed to fetch');
  });
  await renameTo('taxes');
  expect(await toastText()).toBe('Failed to rename file');
});

it("shows the server's own message for a refusal meant for the user (409)", async () => {
  serve(() =>
    json({ error: { code: 'conflict', message: 'A file with this name already exists' } }, 409),
  );
  await renameTo('taxes');
  expect(await toastText()).toBe('A file with this name already exists');
});
