import { describe, expect, it } from 'vitest';
import type { Plan } from '@sealvault/protocol';
import { isCheckoutReturn, planFeatures } from './planFeatures.ts';

const plan = (over: Partial<Plan>): Plan => ({
  id: 'free',
  name: 'Free',
  description: '',
  price_monthly: 0,
  max_vaults: 2,
  max_file_size_mb: 2,
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

  it("gives basic 'Priority support' and pro the spec's three features", () => {
    expect(planFeatures(plan({ id: 'basic', max_vaults: 10, max_file_size_mb: 100 }))).toContain(
      'Priority support',
    );
    expect(planFeatures(plan({ id: 'pro', max_vaults: 20, max_file_size_mb: 500 }))).toEqual(
      expect.arrayContaining(['Priority support', 'Advanced features', 'Team collaboration']),
    );
  });
});

describe('isCheckoutReturn', () => {
  it('recognises the order number the provider adds to the return address', () => {
    expect(isCheckoutReturn(new URLSearchParams('refno=123&total=9.95'))).toBe(true);
    expect(isCheckoutReturn(new URLSearchParams('REFNO=123'))).toBe(true);
    expect(isCheckoutReturn(new URLSearchParams('view=subscription'))).toBe(false);
  });
});
