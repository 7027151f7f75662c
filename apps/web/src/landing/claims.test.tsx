// @vitest-environment happy-dom
// The landing page's claims are the operator's (GET /api/landing): shown as served, never a
// default in their place, and a section without any is gone with its link.
import { LANDING_DEFAULTS, type LandingContent } from '@sealvault/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { LandingHeader } from './LandingHeader.tsx';
import { Stats } from './Stats.tsx';
import { Testimonials } from './Testimonials.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderClaims(answer: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(answer())),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <LandingHeader />
        <Stats />
        <Testimonials />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

it("shows the operator's statistics and testimonials as the server serves them", async () => {
  const content: LandingContent = {
    stats: [
      { value: '1,200', label: 'accounts' },
      { value: '99.5%', label: 'uptime' },
    ],
    testimonials: [{ quote: 'It just works.', name: 'Ada Lovelace', role: '' }],
  };
  renderClaims(() => json(200, content));
  const strip = await screen.findByRole('region', { name: 'SealVault in numbers' });
  expect(
    within(strip)
      .getAllByRole('definition')
      .map((d) => d.textContent),
  ).toEqual(['1,200', '99.5%']);
  expect(within(strip).queryByText('50,000+')).toBeNull();
  const quotes = screen.getByRole('region', { name: 'Trusted with what matters most' });
  expect(within(quotes).getAllByRole('listitem')).toHaveLength(1);
  expect(quotes.textContent).toContain('“It just works.”');
  expect(quotes.textContent).toContain('Ada Lovelace');
  expect(nav().getByRole('link', { name: 'Testimonials' }).getAttribute('href')).toBe(
    '#testimonials',
  );
});

it("shows the spec's claims when the server serves its defaults", async () => {
  renderClaims(() => json(200, LANDING_DEFAULTS));
  const strip = await screen.findByRole('region', { name: 'SealVault in numbers' });
  for (const text of ['50,000+', '99.9%', '10M+', '24/7', 'AES-256']) {
    expect(within(strip).getByText(text)).toBeTruthy();
  }
  expect(screen.getAllByRole('figure')).toHaveLength(3);
});

it('hides an empty section and its link', async () => {
  renderClaims(() => json(200, { stats: [], testimonials: [] }));
  await vi.waitFor(() => expect(nav().queryByRole('link', { name: 'Testimonials' })).toBeNull());
  expect(screen.queryByRole('region', { name: 'SealVault in numbers' })).toBeNull();
  expect(document.getElementById('testimonials')).toBeNull();
  expect(nav().getByRole('link', { name: 'Pricing' })).toBeTruthy();
});

it('shows no default claim in place of ones that could not be read', async () => {
  renderClaims(() => json(500, { error: { code: 'internal', message: 'boom' } }));
  await vi.waitFor(() => expect(nav().queryByRole('link', { name: 'Testimonials' })).toBeNull());
  expect(screen.queryByText('50,000+')).toBeNull();
  expect(screen.queryByText('Maya Okafor')).toBeNull();
});
