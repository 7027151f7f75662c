import type { Plan } from '@sealvault/protocol';
import { describe, expect, it } from 'vitest';
import { formatPrice, formatVaultLimit, isFreePlan } from './planDisplay.ts';
import { sortPlans } from './usePlans.ts';

const plan = (id: Plan['id'], price: number, active = true): Plan => ({
  id,
  name: id,
  description: '',
  price_monthly: price,
  max_vaults: 1,
  max_file_size_mb: 1,
  features: [],
  is_active: active,
  created_at: '',
  updated_at: '',
});

describe('formatPrice', () => {
  it("shows a free plan as $0 'forever'", () => {
    expect(formatPrice(0)).toEqual({ amount: '$0', period: 'forever' });
  });

  it('shows a paid plan per month with cents', () => {
    expect(formatPrice(4.95)).toEqual({ amount: '$4.95', period: '/month' });
    expect(formatPrice(20)).toEqual({ amount: '$20.00', period: '/month' });
  });
});

describe('formatVaultLimit', () => {
  it("shows -1 as 'Unlimited'", () => {
    expect(formatVaultLimit(-1)).toBe('Unlimited');
    expect(formatVaultLimit(10)).toBe('10');
  });
});

it('isFreePlan is true only for a zero price', () => {
  expect(isFreePlan({ price_monthly: 0 })).toBe(true);
  expect(isFreePlan({ price_monthly: 4.95 })).toBe(false);
});

it('sortPlans keeps active plans, cheapest first', () => {
  const sorted = sortPlans([
    plan('unlimited', 19.95),
    plan('free', 0),
    plan('pro', 9.95, false),
    plan('basic', 4.95),
  ]);
  expect(sorted.map((p) => p.id)).toEqual(['free', 'basic', 'unlimited']);
});
