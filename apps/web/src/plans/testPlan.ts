// A plan row for component tests (10 vaults, 100 MB unless told otherwise).
import type { Plan } from '@sealvault/protocol';

export const testPlan = (
  id: Plan['id'],
  name: string,
  price: number,
  over: Partial<Plan> = {},
): Plan => ({
  id,
  name,
  description: `${name} plan`,
  price_monthly: price,
  max_vaults: 10,
  max_file_size_mb: 100,
  features: [],
  is_active: true,
  created_at: '',
  updated_at: '',
  ...over,
});
