// @vitest-environment jsdom
import type { Plan, SubscriptionResponse } from '@sealvault/protocol';
import { testPlan as plan } from '../../plans/testPlan.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { CurrentPlanCard } from './CurrentPlanCard.tsx';

afterEach(cleanup);

const data = (pending: Plan['id']): SubscriptionResponse => ({
  subscription: {
    plan_id: 'pro',
    status: 'active',
    started_at: '2026-07-05T12:00:00.000Z',
    current_period_end: '2026-08-05T12:00:00.000Z',
    pending_plan_id: pending,
  },
  limits: {
    max_vaults: 20,
    max_file_size_mb: 500,
    plan_name: 'Pro',
    max_storage_mb: 51_200,
    storage_used_bytes: 46 * 1024 ** 3,
  },
  vault_count: 3,
});

const show = (pending: Plan['id'], pendingPlan: Plan) =>
  render(
    <CurrentPlanCard
      data={data(pending)}
      plan={plan('pro', 'Pro', 9.95)}
      pendingPlan={pendingPlan}
      onKeep={() => undefined}
      keeping={false}
    />,
  );

it('a scheduled switch to free names the date and can be called off', () => {
  show('free', plan('free', 'Free', 0));
  expect(screen.getByRole('status').textContent).toContain(
    'Your plan switches to Free on Aug 5, 2026, at the end of the billing period.',
  );
  expect(screen.getByRole('button', { name: 'Keep Pro' })).toBeTruthy();
});

it('a cheaper plan already paid for names that plan and offers no way back', () => {
  show('basic', plan('basic', 'Basic', 4.95));
  expect(screen.getByRole('status').textContent).toContain('Your plan switches to Basic on');
  expect(screen.queryByRole('button', { name: 'Keep Pro' })).toBeNull();
});

it("shows the plan's storage quota and the storage used against it", () => {
  show('basic', plan('basic', 'Basic', 4.95));
  expect(screen.getByText('Storage').nextElementSibling?.textContent).toBe('50 GB');
  expect(screen.getByText('46.0 GB of 50 GB used')).toBeTruthy();
  const bar = screen.getByRole('progressbar', { name: 'Storage usage' });
  expect(bar.getAttribute('aria-valuenow')).toBe('92');
  expect(bar.dataset.level).toBe('critical');
});
