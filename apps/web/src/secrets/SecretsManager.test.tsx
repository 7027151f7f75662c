// @vitest-environment happy-dom
// Creating, updating or deleting a secret that the server fails shows the spec's 'Failed to
// create secret', 'Failed to update secret' or 'Failed to delete secret', never the raw text of a
// 500; a refusal meant for the user (a 4xx with our error shape) is shown as written.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { apiErrorFrom, type Vault } from '@sealvault/protocol';
import type { Secret } from './model.ts';
import { SecretsManager } from './SecretsManager.tsx';

const secret: Secret = {
  id: '0b7c9d2e-4f61-4a3b-8c5d-6e7f8a9b0c1d',
  title: 'Mail',
  username: 'ada',
  password: 'hunter22',
  url: '',
  notes: '',
  revision: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const vault: Vault = {
  id: '8f4e2a51-0c3b-4d1e-9a7f-2b6c5d4e3f21',
  name: 'Passwords',
  description: null,
  vault_type: 'secrets',
  provider_type: 'server',
  storage_folder: null,
  is_hidden: false,
  key_revision: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  secrets_count: 1,
  file_count: 0,
  total_size: 0,
} as unknown as Vault;

const failWith = vi.hoisted(() => ({ answer: null as null | (() => Response) }));
vi.mock('./useSecrets.ts', () => {
  const fail = async () => {
    throw await apiErrorFrom(failWith.answer!());
  };
  return {
    useSecrets: () => ({
      isPending: false,
      isError: false,
      data: { secrets: [secret], unreadable: 0, integrity: [] },
    }),
    useSecretMutations: () => ({
      save: { mutateAsync: fail, isPending: false },
      remove: { mutateAsync: fail, isPending: false },
    }),
  };
});

const plain500 = () =>
  new Response('Internal Server Error', {
    status: 500,
    statusText: 'Internal Server Error',
    headers: { 'content-type': 'text/plain' },
  });

beforeEach(() => {
  // The window virtualizer of the list; jsdom has neither.
  vi.stubGlobal('scrollTo', () => undefined);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show() {
  // The header's other buttons (import/export, health) read the vault through React Query.
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  render(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <SecretsManager vault={vault} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

// Real work (a lazy chunk, Argon2id or a form's round trips): 20 s, so a loaded machine is no failure.
it("shows 'Failed to create secret' for a 500 'Internal Server Error'", async () => {
  failWith.answer = plain500;
  const user = show();
  await user.click(screen.getByRole('button', { name: 'Add Site Password' }));
  const dialog = screen.getByRole('dialog');
  await user.type(within(dialog).getByLabelText('Title'), 'Bank');
  await user.click(within(dialog).getByRole('button', { name: 'Add Secret' }));
  expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to create secret');
}, 20_000);

it("shows 'Failed to update secret' for a 500 'Internal Server Error'", async () => {
  failWith.answer = plain500;
  const user = show();
  await user.click(await screen.findByRole('button', { name: 'Edit Mail' }));
  const dialog = screen.getByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
  expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to update secret');
});

it("shows 'Failed to delete secret' for a 500, and the server's message for a 404", async () => {
  failWith.answer = plain500;
  const user = show();
  await user.click(await screen.findByRole('button', { name: 'Delete Mail' }));
  const dialog = screen.getByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to delete secret');

  failWith.answer = () =>
    new Response(JSON.stringify({ error: { code: 'not_found', message: 'Secret not found' } }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    });
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await vi.waitFor(() =>
    expect(within(dialog).getByRole('alert').textContent).toBe('Secret not found'),
  );
});

it('shows each missing field of a plain-text secret under its field, and focuses the first', async () => {
  const user = show();
  await user.click(screen.getByRole('button', { name: 'Add Plain Text' }));
  const dialog = screen.getByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Add Plain Text' }));
  const title = within(dialog).getByLabelText('Title');
  const content = within(dialog).getByLabelText('Content');
  const errorOf = (field: HTMLElement) =>
    document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
  await vi.waitFor(() => expect(errorOf(title)).toBe('Title is required for plain text secrets'));
  expect(errorOf(content)).toBe('Content is required for plain text secrets');
  expect(title.getAttribute('aria-invalid')).toBe('true');
  expect(content.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(title);

  // Fixing a field clears its own error only.
  await user.type(title, 'Wifi');
  expect(title.getAttribute('aria-invalid')).toBeNull();
  expect(errorOf(content)).toBe('Content is required for plain text secrets');
});
