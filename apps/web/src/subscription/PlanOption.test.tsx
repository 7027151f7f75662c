// @vitest-environment happy-dom
import { trialMessages, type Plan, type Subscription } from '@sealvault/protocol';
import { testPlan as plan } from '../plans/testPlan.ts';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { PAYMENTS_OFF, PlanOption } from './PlanOption.tsx';

afterEach(cleanup);

const sub = (over: Partial<Subscription> = {}): Subscription => ({
  plan_id: 'free',
  status: 'active',
  started_at: '',
  current_period_end: null,
  pending_plan_id: null,
  trial: null,
  ...over,
});

const show = (
  p: Plan,
  s: Subscription,
  opts: {
    isAdmin?: boolean;
    busy?: boolean;
    paymentsOff?: boolean;
    trialOffered?: boolean;
    busyAction?: 'trial';
  } = {},
) => {
  const onAction = vi.fn();
  render(
    <PlanOption
      plan={p}
      subscription={s}
      isAdmin={opts.isAdmin ?? false}
      busy={opts.busy ?? false}
      disabled={false}
      paymentsOff={opts.paymentsOff ?? false}
      trialOffered={opts.trialOffered ?? false}
      {...(opts.busyAction ? { busyAction: opts.busyAction } : {})}
      onAction={onAction}
    />,
  );
  return onAction;
};

it("labels the current plan 'Current Plan' and offers no action on it", () => {
  show(plan('free', 'Free', 0), sub());
  expect(screen.getAllByText('Current Plan')).toHaveLength(2);
  expect(screen.getByRole<HTMLButtonElement>('button').disabled).toBe(true);
});

it("offers 'Pay Now' to a user and 'Admin Upgrade (Free)' to an admin", async () => {
  const onAction = show(plan('pro', 'Pro', 9.95), sub());
  await userEvent.click(screen.getByRole('button', { name: 'Pay Now: Pro' }));
  expect(onAction).toHaveBeenCalledWith(expect.objectContaining({ id: 'pro' }), 'pay');
  cleanup();
  const onAdmin = show(plan('pro', 'Pro', 9.95), sub(), { isAdmin: true });
  await userEvent.click(screen.getByRole('button', { name: 'Admin Upgrade (Free): Pro' }));
  expect(onAdmin).toHaveBeenCalledWith(expect.objectContaining({ id: 'pro' }), 'admin');
  expect(screen.getByText('Professional')).toBeDefined();
});

it("reads 'Processing...' while an upgrade runs and 'Downgrading...' while a downgrade runs", () => {
  show(plan('basic', 'Basic', 4.95), sub(), { busy: true });
  expect(screen.getByRole('button').textContent).toBe('Processing...');
  cleanup();
  show(plan('free', 'Free', 0), sub({ plan_id: 'pro' }), { busy: true });
  expect(screen.getByRole('button').textContent).toBe('Downgrading...');
});

it("offers 'Switch to Free' from a paid plan, and marks a scheduled switch", async () => {
  const onAction = show(plan('free', 'Free', 0), sub({ plan_id: 'basic' }));
  await userEvent.click(screen.getByRole('button', { name: 'Switch to Free: Free' }));
  expect(onAction).toHaveBeenCalledWith(expect.objectContaining({ id: 'free' }), 'free');
  cleanup();
  show(plan('free', 'Free', 0), sub({ plan_id: 'basic', pending_plan_id: 'free' }));
  expect(screen.getByRole('button').textContent).toBe('Switch scheduled');
  expect(screen.getByRole<HTMLButtonElement>('button').disabled).toBe(true);
});

it('shows no dead Pay Now on a server without card payments, and says why; admins still upgrade', () => {
  show(plan('pro', 'Pro', 9.95), sub(), { paymentsOff: true });
  expect(screen.queryByRole('button')).toBeNull();
  expect(screen.getByText(PAYMENTS_OFF)).toBeDefined();
  cleanup();
  show(plan('pro', 'Pro', 9.95), sub(), { paymentsOff: true, isAdmin: true });
  expect(screen.getByRole('button', { name: 'Admin Upgrade (Free): Pro' })).toBeDefined();
  cleanup();
  show(plan('free', 'Free', 0), sub({ plan_id: 'pro' }), { paymentsOff: true });
  expect(screen.getByRole('button', { name: 'Switch to Free: Free' })).toBeDefined();
});

it('offers a trial on a paid plan, beside Pay Now, when the account may start one', async () => {
  const onAction = show(plan('pro', 'Pro', 9.95), sub(), { trialOffered: true });
  await userEvent.click(screen.getByRole('button', { name: `${trialMessages.start}: Pro` }));
  expect(onAction).toHaveBeenCalledWith(expect.objectContaining({ id: 'pro' }), 'trial');
  expect(screen.getByText(trialMessages.noCard)).toBeDefined();
  expect(screen.getByRole('button', { name: 'Pay Now: Pro' })).toBeDefined();
  cleanup();
  // Never on Free, nor on the current plan, nor when the account may not start one.
  show(plan('free', 'Free', 0), sub({ plan_id: 'basic' }), { trialOffered: true });
  expect(screen.queryByRole('button', { name: /trial/ })).toBeNull();
  cleanup();
  show(plan('pro', 'Pro', 9.95), sub());
  expect(screen.queryByRole('button', { name: /trial/ })).toBeNull();
});

it("reads 'Processing...' on the trial button while the trial starts", () => {
  show(plan('basic', 'Basic', 4.95), sub(), {
    trialOffered: true,
    busy: true,
    busyAction: 'trial',
  });
  const [trial, pay] = screen.getAllByRole('button');
  expect(trial?.textContent).toBe('Processing...');
  expect(pay?.textContent).toBe('Pay Now');
  expect((pay as HTMLButtonElement).disabled).toBe(true);
});

it('keeps Pay Now on the plan on trial, to go on after it', async () => {
  const onTrial = sub({
    plan_id: 'pro',
    trial: { plan_id: 'pro', started_at: '', ends_at: '2026-03-24T00:00:00Z', outcome: 'running' },
  });
  const onAction = show(plan('pro', 'Pro', 9.95), onTrial);
  expect(screen.getAllByText('Current Plan')).toHaveLength(1);
  await userEvent.click(screen.getByRole('button', { name: 'Pay Now: Pro' }));
  expect(onAction).toHaveBeenCalledWith(expect.objectContaining({ id: 'pro' }), 'pay');
});
