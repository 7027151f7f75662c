// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { meQueryKey } from '../auth/useAccount.ts';
import { StrengthMeter, VaultPasswordStrength } from './StrengthMeter.tsx';

afterEach(cleanup);

const strong = 'quartz-Fennel-harbor-72-Lagoon';

// Real work (a lazy chunk, Argon2id or a form's round trips): 20 s, so a loaded machine is no failure.
it('shows the strength of a password, and nothing for an empty one', async () => {
  const { rerender } = render(<StrengthMeter password="" />);
  expect(screen.queryByTestId('strength')).toBeNull();
  rerender(<StrengthMeter password="password" />);
  expect((await screen.findByRole('status', {}, { timeout: 15_000 })).textContent).toMatch(
    /^Strength: Very weak/,
  );
  rerender(<StrengthMeter password={strong} />);
  await screen.findByText('Strong', {}, { timeout: 15_000 });
}, 20_000);

it("holds a vault password against the account's e-mail and name", async () => {
  const qc = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  qc.setQueryData(meQueryKey, { email: 'zebulon.quimby@example.com', full_name: 'Zebulon Quimby' });
  render(
    <QueryClientProvider client={qc}>
      <VaultPasswordStrength password={`Zebulon-${strong}`} />
    </QueryClientProvider>,
  );
  const status = await screen.findByRole('status', {}, { timeout: 5000 });
  expect(status.textContent).toMatch(/^Strength: (Very weak|Weak)/);
  expect(status.textContent).toContain('"Zebulon", from your account');
});
