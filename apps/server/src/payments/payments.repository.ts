// Checkouts started by users and the provider's notifications already handled.
import type { Q } from '../subscriptions/subscriptions.repository.ts';

export async function insertCheckout(
  db: Q,
  row: { id: string; user_id: string; plan_id: string; created_at: string },
): Promise<void> {
  await db.insertInto('payment_checkouts').values(row).execute();
}

export function findCheckout(db: Q, id: string) {
  return db.selectFrom('payment_checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Forgets a user's checkouts older than `before` (abandoned carts). */
export async function pruneCheckouts(db: Q, userId: string, before: string): Promise<void> {
  await db
    .deleteFrom('payment_checkouts')
    .where('user_id', '=', userId)
    .where('created_at', '<', before)
    .execute();
}

/** The user whose subscription carries this provider reference (renewals). */
export async function userByProviderRef(db: Q, ref: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_subscriptions')
    .select('user_id')
    .where('provider_ref', '=', ref)
    .executeTakeFirst();
  return row?.user_id;
}

/** Records a notification; false when one with this id was handled before (a replay). */
export async function claimNotification(
  db: Q,
  row: { id: string; order_ref: string; received_at: string },
): Promise<boolean> {
  const res = await db
    .insertInto('payment_notifications')
    .values({ ...row, user_id: null, plan_id: null, outcome: 'received' })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function orderApplied(db: Q, orderRef: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_notifications')
    .select('id')
    .where('order_ref', '=', orderRef)
    .where('outcome', '=', 'applied')
    .executeTakeFirst();
  return row !== undefined;
}

export async function settleNotification(
  db: Q,
  id: string,
  values: { outcome: string; user_id: string | null; plan_id: string | null },
): Promise<void> {
  await db.updateTable('payment_notifications').set(values).where('id', '=', id).execute();
}
