import { describe, expect, it } from 'vitest';
import { PLAN_FEATURES, type Plan } from '@sealvault/protocol';
import { isCheckoutReturn, planFeatures } from './planFeatures.ts';

const plan = (over: Partial<Plan>): Plan => ({
  id: 'free',
  name: 'Free',
  description: '',
  price_monthly: 0,
  max_vaults: 2,
  max_file_size_mb: 2,
  features: [...PLAN_FEATURES.free],
  is_active: true,
  created_at: '',
  updated_at: '',
  ...over,
});

describe('planFeatures', () => {
  it('lists the limits, with Unlimited for -1', () => {
    expect(planFeatures(plan({}))).toEqual([
      'Up to 2 vaults',
      '2 MB max file size',
      'End-to-end AES-256 encryption',
    ]);
    expect(planFeatures(plan({ id: 'unlimited', max_vaults: -1, max_file_size_mb: -1 }))).toEqual(
      expect.arrayContaining(['Unlimited vaults', 'Unlimited file size']),
    );
  });

  it("lists the plan's own feature lines after the limits, as the plans table has them", () => {
    const basic = plan({ id: 'basic', max_vaults: 10, features: [...PLAN_FEATURES.basic] });
    expect(planFeatures(basic)).toContain('Priority support');
    expect(planFeatures(plan({ id: 'pro', features: [...PLAN_FEATURES.pro] }))).toEqual(
      expect.arrayContaining(['Priority support', 'Advanced features', 'Team collaboration']),
    );
    expect(planFeatures(plan({ id: 'basic', features: ['Phone support'] }))).toEqual([
      'Up to 2 vaults',
      '2 MB max file size',
      'Phone support',
    ]);
  });
});

describe('isCheckoutReturn', () => {
  it('recognises the order number the provider adds to the return address', () => {
    expect(isCheckoutReturn(new URLSearchParams('refno=123&total=9.95'))).toBe(true);
    expect(isCheckoutReturn(new URLSearchParams('REFNO=123'))).toBe(true);
    expect(isCheckoutReturn(new URLSearchParams('view=subscription'))).toBe(false);
  });
});
