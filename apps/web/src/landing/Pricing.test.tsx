// @vitest-environment happy-dom
import type { Plan } from '@sealvault/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { testPlan } from '../plans/testPlan.ts';
import { Pricing } from './Pricing.tsx';

const plan = (id: Plan['id'], name: string, price: number, vaults: number, mb: number) =>
  testPlan(id, name, price, { max_vaults: vaults, max_file_size_mb: mb });

const plans = [
  plan('unlimited', 'Unlimited', 19.95, -1, -1),
  plan('free', 'Free', 0, 2, 2),
  plan('pro', 'Pro', 9.95, 20, 500),
  plan('basic', 'Basic', 4.95, 10, 100),
];

/** Text as a reader gets it, whitespace collapsed. */
const text = (el: Element | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderPricing() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Pricing />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('renders one card per plan, cheapest first, with prices, limits and trial notes', async () => {
  const fetchMock = vi.fn(() => Promise.resolve(json(200, { plans })));
  vi.stubGlobal('fetch', fetchMock);
  renderPricing();
  expect(text(screen.getByRole('status'))).toContain('Loading plans…');

  const list = await screen.findByRole('list', { name: 'Plans' });
  // The plans, not the feature lines listed inside each.
  const items = within(list)
    .getAllByRole('listitem')
    .filter((li) => li.parentElement === list);
  expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual([
    'Free',
    'Basic',
    'Pro',
    'Unlimited',
  ]);
  const [free, basic, , unlimited] = items;
  expect(text(free)).toContain('$0forever');
  expect(text(free)).not.toContain('trial');
  expect(text(basic)).toContain('$4.95/month');
  expect(text(basic)).toContain('Includes a 14-day free trial');
  expect(text(basic)).toContain('Max file size100 MB');
  expect(text(unlimited)).toContain('VaultsUnlimited');
  expect(text(unlimited)).toContain('Max file sizeUnlimited');
  for (const item of items) {
    expect(within(item).getByRole('link').getAttribute('href')).toBe('/auth?mode=signup');
  }
  expect(fetchMock).toHaveBeenCalledWith('/api/plans', expect.anything());
});

it("shows the spec's fallback plan table when the plans cannot be loaded", async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(json(500, { error: { code: 'internal', message: 'boom' } }))),
  );
  renderPricing();
  const list = await screen.findByRole('list', { name: 'Plans' });
  // The plans, not the feature lines listed inside each.
  const items = within(list)
    .getAllByRole('listitem')
    .filter((li) => li.parentElement === list);
  expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual([
    'Free',
    'Basic',
    'Pro',
    'Unlimited',
  ]);
  expect(text(items[1])).toContain('$4.95/month');
  expect(text(items[2])).toContain('Max file size500 MB');
  // The fallback's feature lines are the spec's, as the server seeds them.
  expect(
    within(screen.getByRole('list', { name: 'Pro features' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual([
    'End-to-end AES-256 encryption',
    'Priority support',
    'Advanced features',
    'Team collaboration',
    'Hide vaults from your dashboard',
  ]);
  expect(screen.queryByRole('alert')).toBeNull();
});

it('says so when no plan is available', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(json(200, { plans: [] }))),
  );
  renderPricing();
  const note = await screen.findByText(
    'No subscription plans are currently available. Please check back later.',
  );
  expect(note.tagName).toBe('P');
});

it('shows no pricing on a self-hosted instance (PLANS_MODE=self-hosted, issue 33)', async () => {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(
      url === '/api/auth-config'
        ? json(200, { google: false, signup: 'invite', plans: 'self-hosted' })
        : json(200, { plans }),
    ),
  );
  vi.stubGlobal('fetch', fetchMock);
  const { container } = renderPricing();
  await vi.waitFor(() =>
    expect(fetchMock).toHaveBeenCalledWith('/api/auth-config', expect.anything()),
  );
  await vi.waitFor(() => expect(container.querySelector('#pricing')).toBeNull());
  expect(screen.queryByText('Simple, transparent pricing')).toBeNull();
});
