// Spec §2 and §7: a normal user pays through checkout. This server has no payment
// configuration, so the paid plans' cards say so instead of offering a dead 'Pay Now' (issue
// 19), and the plan does not change.
import { expect, test } from '@playwright/test';
import { signedIn } from '../../support/vaults.ts';
import { createVaultsViaApi, topBarPlan } from './plans.ts';

// Each test signs a fresh user up and in; allow for a busy machine.
test.describe.configure({ timeout: 90_000 });

const HIDE_NOTE = 'Upgrade to the Pro plan to hide vaults from your dashboard.';

const NOT_SET_UP =
  'Card payments are not set up on this server. Ask the administrator to upgrade your plan.';

test('a normal user is told on each paid plan that card payments are not set up', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL ?? '', 'payer');
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Subscription Management' })).toBeVisible();
  await expect(page.getByText('Admin', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'Free' })).toContainText('Current Plan');
  await expect(page.getByRole('button', { name: /^Pay Now: / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Admin Upgrade/ })).toHaveCount(0);
  for (const name of ['Basic', 'Pro', 'Unlimited']) {
    await expect(page.getByRole('article', { name })).toContainText(NOT_SET_UP);
  }
  await expect(page.getByTestId('current-plan-name')).toHaveText('Free');
  await expect(topBarPlan(page, 'Free')).toBeVisible();

  // The server refuses a paid plan without a payment, whatever the page does.
  const res = await page.request.post('/api/subscription/upgrade', { data: { plan_id: 'pro' } });
  expect(res.status()).toBe(403);
});

test('a plan other than Pro sees the upgrade note and cannot hide vaults', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL ?? '', 'nohide');
  await createVaultsViaApi(page, 1, 'Receipts');
  await page.goto('/dashboard?view=settings');
  await expect(page.getByText(HIDE_NOTE)).toBeVisible();
  const toggle = page.getByRole('switch', { name: 'Hide Receipts 1 from the dashboard' });
  await expect(toggle).toBeDisabled();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');

  // The server enforces it too.
  const vaults = (await (await page.request.get('/api/vaults')).json()) as {
    vaults: { id: string }[];
  };
  const res = await page.request.patch(`/api/vaults/${vaults.vaults[0]?.id}/visibility`, {
    data: { is_hidden: true },
  });
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain(HIDE_NOTE);
});
