// @vitest-environment happy-dom
import { trialMessages, type Plan, type SubscriptionResponse } from '@sealvault/protocol';
import { testPlan as plan } from '../plans/testPlan.ts';
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
    trial: null,
  },
  limits: {
    max_vaults: 20,
    max_file_size_mb: 500,
    plan_name: 'Pro',
    max_storage_mb: 51_200,
    storage_used_bytes: 46 * 1024 ** 3,
  },
  vault_count: 3,
  read_only_vaults: [],
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

const free = plan('free', 'Free', 0);
const trialData = (
  outcome: 'running' | 'lapsed',
  readOnly: SubscriptionResponse['read_only_vaults'] = [],
): SubscriptionResponse => ({
  subscription: {
    plan_id: outcome === 'running' ? 'pro' : 'free',
    status: 'active',
    started_at: '2026-03-10T09:00:00.000Z',
    current_period_end: null,
    pending_plan_id: null,
    trial: {
      plan_id: 'pro',
      started_at: '2026-03-10T09:00:00.000Z',
      ends_at: '2026-03-24T09:00:00.000Z',
      outcome,
    },
  },
  limits:
    outcome === 'running'
      ? { max_vaults: 20, max_file_size_mb: 500, plan_name: 'Pro' }
      : { max_vaults: 2, max_file_size_mb: 2, plan_name: 'Free' },
  vault_count: 4,
  read_only_vaults: readOnly,
});

it("shows a running trial's end date", () => {
  render(
    <CurrentPlanCard
      data={trialData('running')}
      plan={plan('pro', 'Pro', 9.95)}
      pendingPlan={undefined}
      trialPlan={plan('pro', 'Pro', 9.95)}
      onKeep={() => undefined}
      keeping={false}
    />,
  );
  expect(screen.getByTestId('trial-ends').textContent).toBe(trialMessages.ends('Mar 24, 2026'));
  expect(screen.getByText('Trial')).toBeTruthy();
  expect(screen.queryByTestId('trial-lapsed')).toBeNull();
});

it('after a lapsed trial, says so and names the vaults that are read-only', () => {
  render(
    <CurrentPlanCard
      data={trialData('lapsed', [
        { id: 'a', name: 'Files B' },
        { id: 'b', name: 'Logins B' },
      ])}
      plan={free}
      pendingPlan={undefined}
      trialPlan={plan('pro', 'Pro', 9.95)}
      onKeep={() => undefined}
      keeping={false}
    />,
  );
  const notice = screen.getByTestId('trial-lapsed');
  expect(notice.textContent).toContain(trialMessages.lapsed('Pro', 'Mar 24, 2026'));
  expect(notice.textContent).toContain(trialMessages.readOnlyList(2));
  const list = screen.getByRole('list', { name: 'Read-only vaults' });
  expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
    'Files B',
    'Logins B',
  ]);
  expect(screen.queryByTestId('trial-ends')).toBeNull();
});
