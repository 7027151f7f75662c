// Display helpers of the admin console: dates in the app's short format, sizes as the plans show
// them, plan names from their ids.
import { formatBytes, planIdSchema, type PlanId } from '@sealvault/protocol';
import { formatDate } from '../i18n/format.ts';
import { i18n } from '../i18n/i18n.ts';

export { formatBytes };

/** "Nov 28, 2026" (docs/product.md §9's US short format); an empty value reads "Never". */
export function formatDay(value: string | null | undefined): string {
  if (!value) return i18n.t('Never');
  return formatDate(value, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

/** "Nov 28, 2026, 3:04 AM": the format of Settings' session list. */
export { formatSessionDate as formatTime } from '../settings/device.ts';

export const PLAN_IDS: readonly PlanId[] = planIdSchema.options;

export const planLabel = (id: string): string => id.charAt(0).toUpperCase() + id.slice(1);
