// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { afterEach, expect, it } from 'vitest';
import { initialWizard, type WizardState } from './wizard.ts';
import { ProviderStep, TypeStep } from './WizardSteps.tsx';

afterEach(cleanup);

/** The wizard's form around one step, with the values it holds written out. */
function Wizard({ children, values }: { children: ReactNode; values?: Partial<WizardState> }) {
  const form = useForm<WizardState>({ defaultValues: { ...initialWizard, ...values } });
  return (
    <FormProvider {...form}>
      {children}
      <Values />
    </FormProvider>
  );
}
function Values() {
  const { vaultType, provider } = useWatch<WizardState>();
  return <output data-testid="values">{JSON.stringify({ vaultType, provider })}</output>;
}
const values = () => JSON.parse(screen.getByTestId('values').textContent) as Partial<WizardState>;

it('offers only connected providers, and shows the others disabled with the reason', async () => {
  // jsdom has no origin private file system: "This browser" is not supported here.
  render(
    <Wizard>
      <ProviderStep />
    </Wizard>,
  );
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
  expect(values().provider).toBe('server');
});

it('clears the chosen provider when the vault type changes, and only then', async () => {
  render(
    <Wizard values={{ provider: 'server' }}>
      <TypeStep />
    </Wizard>,
  );
  await userEvent.click(screen.getByRole('radio', { name: /File vault/ }));
  expect(values()).toEqual({ vaultType: 'files', provider: 'server' });
  await userEvent.click(screen.getByRole('radio', { name: /Secrets vault/ }));
  expect(values()).toEqual({ vaultType: 'secrets', provider: null });
});
