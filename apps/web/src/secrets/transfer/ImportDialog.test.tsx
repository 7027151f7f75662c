// @vitest-environment happy-dom
// The import dialog's format list (issue 32): a file that matches no format is "Not recognised",
// continuing says so, and the format the user picks reads it; a known file shows its own format.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { ImportDialog } from './ImportDialog.tsx';

// Storing is not this test's: the vault's session and the crypto Worker are not needed.
vi.mock('../../vaults/sessionContext.tsx', () => ({ sessionOf: vi.fn() }));
vi.mock('./importStore.ts', () => ({ encryptForImport: vi.fn(), storeImport: vi.fn() }));

afterEach(cleanup);

function open() {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ImportDialog vaultId="v1" secrets={[]} open onClose={() => {}} />
    </QueryClientProvider>,
  );
  return user;
}

// The parsers load when a file is chosen: slow on a busy machine.
const LOADING = { timeout: 20_000 };
const formatList = () => screen.getByLabelText<HTMLSelectElement>('Format');

it(
  'says a file is not recognised, then reads it as the format the user picks',
  { timeout: 60_000 },
  async () => {
    const user = open();
    const file = new File(['site,login,secret\nShop,ana,pw\n'], 'export.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('File to import'), file);
    await waitFor(() => expect(formatList()).toBeTruthy(), LOADING);
    expect(formatList().value).toBe('');
    expect(formatList().selectedOptions[0]?.textContent).toBe('Not recognised');
    expect(screen.getByText(/We could not tell the format of this file/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert', {}, LOADING)).textContent).toMatch(
      /^This file is not recognised as a format we can import\. Choose its format in the list/,
    );

    await user.selectOptions(formatList(), 'Chrome passwords CSV');
    expect(formatList().value).toBe('chrome-csv');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('1 item in this file', {}, LOADING)).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Items per type' }).textContent).toBe('Logins1');
  },
);

it(
  'shows the detected format of a new one, a Keeper JSON export',
  { timeout: 60_000 },
  async () => {
    const user = open();
    const json = JSON.stringify({
      shared_folders: [],
      records: [
        { title: 'Mail', login: 'ana', password: 'pw', custom_fields: { $oneTimeCode: '' } },
      ],
    });
    await user.upload(
      screen.getByLabelText('File to import'),
      new File([json], 'export.json', { type: 'application/json' }),
    );
    await waitFor(() => expect(formatList().value).toBe('keeper-json'), LOADING);
    expect(formatList().selectedOptions[0]?.textContent).toBe('Keeper JSON');
    expect(screen.getByText('Detected from the file. Change it if it is wrong.')).toBeTruthy();
  },
);
