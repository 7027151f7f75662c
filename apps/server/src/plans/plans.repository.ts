// Reads subscription plans and maps rows to the protocol's Plan shape.
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Plan, PlanId } from '@sealvault/protocol';
import type { Database, SubscriptionPlansTable } from '../db/schema.ts';

/** The `features` column: a JSON array of strings; anything else (an operator's typo) is none. */
function featuresOf(json: string): string[] {
  const parsed = z.array(z.string()).safeParse(safeJson(json));
  return parsed.success ? parsed.data : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function toPlan(row: Selectable<SubscriptionPlansTable>): Plan {
  return {
    id: row.id as PlanId,
    name: row.name,
    description: row.description,
    price_monthly: row.price_cents / 100,
    max_vaults: row.max_vaults,
    max_file_size_mb: row.max_file_size_mb,
    max_storage_mb: row.max_storage_mb,
    max_share_links: row.max_share_links,
    max_share_mb: row.max_share_mb,
    features: featuresOf(row.features),
    is_active: row.is_active === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function listActivePlans(db: Kysely<Database>): Promise<Plan[]> {
  const rows = await db
    .selectFrom('subscription_plans')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('sort_order')
    .execute();
  return rows.map(toPlan);
}
