// @vitest-environment happy-dom
// A vault deletion the server fails shows the spec's 'Failed to delete vault' as an alert (the
// app's error toast), never the raw text of a 500, and the dialog closes (issue 25); a full
// disk's 507 says what happened.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { toast } from 'sonner';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import type { Vault } from '@sealvault/protocol';
import { Toaster } from '../components/Toaster.tsx';
import { DeleteVaultDialog } from './DeleteVaultDialog.tsx';

const end = vi.hoisted(() => vi.fn());
vi.mock('./sessionContext.tsx', () => ({ useVaultSessions: () => ({ end }) }));

afterEach(() => {
  toast.dismiss(); // toasts are global: none is replayed into the next test's Toaster
  cleanup();
  vi.unstubAllGlobals();
});

const vault = {
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Tax records',
  provider_type: 'server',
} as Vault;

async function deleteAnswered(answer: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(answer())),
  );
  const onClose = vi.fn();
  function Shown() {
    const [open, setOpen] = useState<Vault | null>(vault);
    return (
      <DeleteVaultDialog
        vault={open}
        onClose={() => {
          onClose();
          setOpen(null);
        }}
      />
    );
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Shown />
      <Toaster />
    </QueryClientProvider>,
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Delete vault' }));
  const region = screen.getByRole('region', { name: /^Notifications/ });
  const alert = await within(region).findByRole('listitem');
  return { alert, onClose };
}

it("shows 'Failed to delete vault' for a 500 whose body is text/plain 'Internal Server Error'", async () => {
  const { alert, onClose } = await deleteAnswered(
    () =>
      new Response('Internal Server Error', {
        status: 500,
        statusText: 'Internal Server Error',
        headers: { 'content-type': 'text/plain' },
      }),
  );
  expect(alert.textContent).toBe('Failed to delete vault');
  expect(alert.getAttribute('data-type')).toBe('error');
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(end).not.toHaveBeenCalled();
});

it("shows a full disk's own message (507 storage_full)", async () => {
  const message =
    'The server is out of storage space and could not finish the deletion. Please try again in a moment.';
  const { alert } = await deleteAnswered(
    () =>
      new Response(JSON.stringify({ error: { code: 'storage_full', message } }), {
        status: 507,
        headers: { 'content-type': 'application/json' },
      }),
  );
  expect(alert.textContent).toBe(message);
});
