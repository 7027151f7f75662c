// @vitest-environment happy-dom
import type { Plan } from '@sealvault/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { testPlan } from '../plans/testPlan.ts';
import { SubscriptionView } from './SubscriptionView.tsx';

// 'Pay Now' leaves the app for the checkout's own page: a navigation jsdom cannot make.
const openCheckoutPage = vi.hoisted(() => vi.fn());
vi.mock('../checkout/open.ts', () => ({ openCheckoutPage }));

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const subscription = {
  subscription: {
    plan_id: 'free',
    status: 'active',
    started_at: '2026-11-01T00:00:00.000Z',
    current_period_end: null,
    pending_plan_id: null,
    trial: null,
  },
  limits: { max_vaults: 2, max_file_size_mb: 2, plan_name: 'Free' },
  vault_count: 1,
  read_only_vaults: [],
};

const payments = {
  configured: true,
  merchant_code: 'MERCHANT',
  checkout_host: 'https://secure.example.test',
  products: { basic: 'BASIC', pro: 'PRO', unlimited: 'UNLIMITED' },
};

/** The API as the page calls it: `plans` for /api/plans, `checkout` answers the checkout. */
function stubApi(plans: Plan[], checkout: () => Response) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    if (url === '/api/subscription') return Promise.resolve(json(200, subscription));
    if (url === '/api/plans') return Promise.resolve(json(200, { plans }));
    if (url === '/api/payments/config') return Promise.resolve(json(200, payments));
    if (url === '/api/payments/checkout' && method === 'POST') return Promise.resolve(checkout());
    if (url === '/api/me') {
      return Promise.resolve(json(401, { error: { code: 'unauthorized', message: 'No session' } }));
    }
    return Promise.resolve(json(404, { error: { code: 'not_found', message: url } }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderView() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/subscription']}>
        <SubscriptionView />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('shows the spec alert when the checkout cannot start, and leaves the plan as it was', async () => {
  const fetchMock = stubApi(
    [
      testPlan('free', 'Free', 0, { max_vaults: 2, max_file_size_mb: 2 }),
      testPlan('pro', 'Pro', 9.95),
    ],
    () =>
      json(502, { error: { code: 'internal', message: 'The payment provider is unavailable' } }),
  );
  renderView();

  await userEvent.click(await screen.findByRole('button', { name: 'Pay Now: Pro' }));

  // A 5xx 'internal' answer carries no message meant for users: the spec's fallback fills in.
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain(
    'Payment processing error: An unexpected error occurred. Please try again or contact support.',
  );
  expect(fetchMock).toHaveBeenCalledWith('/api/payments/checkout', expect.anything());
  // Nothing changed the plan, and the button can be pressed again.
  const urls = fetchMock.mock.calls.map(([u]) => (typeof u === 'string' ? u : ''));
  expect(urls.some((u) => u.startsWith('/api/subscription/'))).toBe(false);
  expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Pay Now: Pro' }).disabled).toBe(
    false,
  );
});

it('says so when no plan is offered', async () => {
  stubApi([], () => json(500, {}));
  renderView();
  expect(
    await screen.findByText(
      'No subscription plans are currently available. Please check back later.',
    ),
  ).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Pay Now/ })).toBeNull();
});

it('offers no trial to an account whose e-mail had one on a deleted account', async () => {
  const fetchMock = stubApi(
    [
      testPlan('free', 'Free', 0, { max_vaults: 2, max_file_size_mb: 2 }),
      testPlan('pro', 'Pro', 9.95),
    ],
    () => json(500, {}),
  );
  const earlier = {
    ...subscription,
    subscription: { ...subscription.subscription, earlier_trial: true },
  };
  const base = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) =>
    input === '/api/subscription' ? Promise.resolve(json(200, earlier)) : base(input, init),
  );
  renderView();
  expect(await screen.findByRole('button', { name: /Pay Now/ })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Start 14-day trial/ })).toBeNull();
});

it('starts a trial from Free and then shows its end date', async () => {
  const fetchMock = stubApi(
    [
      testPlan('free', 'Free', 0, { max_vaults: 2, max_file_size_mb: 2 }),
      testPlan('pro', 'Pro', 9.95),
    ],
    () => json(500, {}),
  );
  const onTrial = {
    ...subscription,
    subscription: {
      ...subscription.subscription,
      plan_id: 'pro',
      trial: {
        plan_id: 'pro',
        started_at: '2026-11-01T00:00:00.000Z',
        ends_at: '2026-11-15T12:00:00.000Z',
        outcome: 'running',
      },
    },
    limits: { max_vaults: 20, max_file_size_mb: 500, plan_name: 'Pro' },
  };
  const base = fetchMock.getMockImplementation()!;
  let started = false;
  fetchMock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
    if (input === '/api/subscription/trial' && init?.method === 'POST') {
      started = true;
      return Promise.resolve(json(200, onTrial));
    }
    if (input === '/api/subscription' && started) return Promise.resolve(json(200, onTrial));
    return base(input, init);
  });
  renderView();

  await userEvent.click(await screen.findByRole('button', { name: 'Start 14-day trial: Pro' }));
  expect(await screen.findByText('Your Pro trial has started.')).toBeTruthy();
  expect((await screen.findByTestId('trial-ends')).textContent).toBe('Trial ends Nov 15, 2026');
  const call = fetchMock.mock.calls.find(([u]) => u === '/api/subscription/trial');
  expect(JSON.parse(call?.[1]?.body as string)).toEqual({ plan_id: 'pro' });
  // One trial per account: no card offers another.
  expect(screen.queryByRole('button', { name: /Start 14-day trial/ })).toBeNull();
});

it("leaves the app for the checkout's own page, and never loads the provider's script here", async () => {
  const reference = 'c'.repeat(32);
  stubApi([testPlan('pro', 'Pro', 9.95)], () =>
    json(201, {
      reference,
      merchant_code: 'MERCHANT',
      checkout_host: 'https://secure.example.test',
      plan_id: 'pro',
      product_code: 'PRO',
      product_name: 'Pro',
      currency: 'USD',
      return_url: 'http://localhost/subscription',
      buy_link_url: 'https://secure.example.test/checkout/buy',
    }),
  );
  renderView();
  await userEvent.click(await screen.findByRole('button', { name: 'Pay Now: Pro' }));
  await vi.waitFor(() => expect(openCheckoutPage).toHaveBeenCalledWith(reference));
  expect(document.querySelector('script[src]')).toBeNull();
  expect(screen.getByRole('button', { name: 'Processing...: Pro' })).toBeTruthy();
});

it('shows the plan and usage only on a self-hosted instance: no plan cards, trial or FAQ (issue 33)', async () => {
  const fetchMock = stubApi(
    [
      testPlan('free', 'Free', 0, { max_vaults: 2, max_file_size_mb: 2 }),
      testPlan('pro', 'Pro', 9.95),
    ],
    () => json(500, {}),
  );
  const api = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) =>
    input === '/api/auth-config'
      ? Promise.resolve(json(200, { google: false, signup: 'invite', plans: 'self-hosted' }))
      : api(input, init),
  );
  renderView();
  expect(await screen.findByText('Your plan on this server and what it holds.')).toBeTruthy();
  expect(screen.queryByRole('heading', { name: 'Plans' })).toBeNull();
  expect(screen.queryByRole('button', { name: /Pay Now|trial/i })).toBeNull();
  expect(
    screen.queryByText(
      'Choose the plan that fits how many vaults you keep and how large your files are.',
    ),
  ).toBeNull();
});
