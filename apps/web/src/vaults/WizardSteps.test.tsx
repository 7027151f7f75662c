// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { initialWizard } from './wizard.ts';
import { ProviderStep } from './WizardSteps.tsx';

afterEach(cleanup);

it('offers only connected providers, and shows the others disabled with the reason', async () => {
  const update = vi.fn();
  // jsdom has no origin private file system: "This browser" is not supported here.
  render(<ProviderStep state={initialWizard} update={update} />);
  const radios = screen.getAllByRole<HTMLInputElement>('radio');
  expect(radios.filter((r) => !r.disabled).map((r) => r.value)).toEqual(['server']);

  const local = screen.getByRole<HTMLInputElement>('radio', { name: 'This browser' });
  expect(local.disabled).toBe(true);
  expect(screen.getByText('Not supported in this browser').id).toBe(
    local.getAttribute('aria-describedby')?.split(' ')[0],
  );
  expect(
    screen.getByText('The files stay in this browser only and are lost if site data is cleared.'),
  ).toBeTruthy();
  for (const name of ['Google Drive', 'Dropbox', 'OneDrive']) {
    expect(screen.getByRole<HTMLInputElement>('radio', { name }).disabled).toBe(true);
  }
  expect(screen.getAllByText('Not set up on this server')).toHaveLength(3);

  await userEvent.click(screen.getByRole('radio', { name: 'SealVault storage' }));
  expect(update).toHaveBeenCalledWith({ provider: 'server' });
});
