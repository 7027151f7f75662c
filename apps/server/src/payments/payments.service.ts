// Checkout and the provider's notifications (docs/product.md §7 card payment provider). The plan changes
// only here, from a notification whose signature verified ([Note: IPN signature] in ipn.ts), and
// only once: the notification's id is claimed in the same transaction as the change, so a replay
// finds it and changes nothing, and a second paid notification for the same order is ignored.
// The user comes from our checkout reference (REFNOEXT, set by the cart) or, for renewals, from
// the provider's subscription reference stored at the first payment; the plan comes from the
// product code that was paid for (IPN_PCODE), never from anything the browser said.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import {
  paidPlanIdSchema,
  subscriptionMessages,
  type CheckoutResponse,
  type PaidPlanId,
  type PaymentsConfig as PaymentsConfigResponse,
} from '@sealvault/protocol';
import type { AppDeps } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { applyPaidPlan } from '../subscriptions/subscriptions.service.ts';
import { field, type IpnForm } from './ipn.ts';
import type { PaymentsConfig } from './payments.config.ts';
import * as repo from './payments.repository.ts';

type Deps = Pick<AppDeps, 'db' | 'now' | 'logger' | 'config'>;

/** Order states in which the provider has taken the payment (its own plugins use these two). */
const PAID_STATES = new Set(['COMPLETE', 'AUTHRECEIVED']);
const CHECKOUT_RETENTION_MS = 90 * 24 * 3_600_000;

export function requirePayments(deps: Pick<Deps, 'config'>): PaymentsConfig {
  if (!deps.config.payments)
    throw new HttpError(503, 'internal', subscriptionMessages.paymentsNotConfigured);
  return deps.config.payments;
}

export function publicPaymentsConfig(config: PaymentsConfig | null): PaymentsConfigResponse {
  if (!config) return { configured: false };
  return {
    configured: true,
    merchant_code: config.merchantCode,
    checkout_host: config.checkoutHost,
    products: { ...config.products },
  };
}

/** Starts a checkout: a reference the notification will carry back, and the cart's settings. */
export async function startCheckout(
  deps: Deps,
  userId: string,
  planId: PaidPlanId,
): Promise<CheckoutResponse> {
  const payments = requirePayments(deps);
  const db = deps.db.kysely;
  const plan = await db
    .selectFrom('subscription_plans')
    .select('name')
    .where('id', '=', planId)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  if (!plan) throw new HttpError(404, 'not_found', 'This plan is not available.');
  const now = deps.now();
  const reference = crypto.randomBytes(16).toString('hex');
  await repo.pruneCheckouts(
    db,
    userId,
    new Date(now.getTime() - CHECKOUT_RETENTION_MS).toISOString(),
  );
  await repo.insertCheckout(db, {
    id: reference,
    user_id: userId,
    plan_id: planId,
    created_at: now.toISOString(),
  });
  return checkoutDetails(deps, payments, { reference, planId, planName: plan.name });
}

/**
 * A checkout this user started (its reference), for the checkout page [Note: checkout document
 * in http/security.ts]; undefined for any other reference, another user's or a plan gone.
 */
export async function checkoutOf(
  deps: Deps,
  userId: string,
  reference: string,
): Promise<CheckoutResponse | undefined> {
  const payments = deps.config.payments;
  if (!payments) return undefined;
  const db = deps.db.kysely;
  const row = await repo.findCheckout(db, reference);
  const planId = paidPlanIdSchema.safeParse(row?.plan_id);
  if (!row || row.user_id !== userId || !planId.success) return undefined;
  const plan = await db
    .selectFrom('subscription_plans')
    .select('name')
    .where('id', '=', planId.data)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  if (!plan) return undefined;
  return checkoutDetails(deps, payments, { reference, planId: planId.data, planName: plan.name });
}

/** The cart's settings and the buy-link of one checkout. */
function checkoutDetails(
  deps: Pick<Deps, 'config'>,
  payments: PaymentsConfig,
  { reference, planId, planName }: { reference: string; planId: PaidPlanId; planName: string },
): CheckoutResponse {
  const productCode = payments.products[planId];
  const returnUrl = `${deps.config.publicUrl}/subscription`;
  const buyLink = new URL('/checkout/buy', payments.checkoutHost);
  for (const [k, v] of [
    ['merchant', payments.merchantCode],
    ['tpl', 'one-column'],
    ['prod', productCode],
    ['qty', '1'],
    ['currency', 'USD'],
    ['order-ext-ref', reference],
    ['return-type', 'redirect'],
    ['return-url', returnUrl],
  ] as const)
    buyLink.searchParams.set(k, v);
  return {
    reference,
    merchant_code: payments.merchantCode,
    checkout_host: payments.checkoutHost,
    plan_id: planId,
    product_code: productCode,
    product_name: planName,
    currency: 'USD',
    return_url: returnUrl,
    buy_link_url: buyLink.toString(),
  };
}

export type NotificationOutcome =
  | 'applied'
  | 'replayed'
  | 'duplicate_order'
  | 'ignored_status'
  | 'unknown_product'
  | 'unknown_order';

/** The id a notification is deduplicated on: the provider's message id, else order+state+date. */
export function notificationId(form: IpnForm): string {
  const messageId = field(form, 'MESSAGE_ID');
  if (messageId) return `msg:${messageId}`;
  return `ipn:${field(form, 'REFNO')}:${field(form, 'ORDERSTATUS')}:${field(form, 'IPN_DATE')}`;
}

/** Handles a notification whose signature has been verified. Idempotent. */
export async function handleNotification(
  deps: Deps,
  payments: PaymentsConfig,
  form: IpnForm,
): Promise<NotificationOutcome> {
  const now = deps.now();
  const id = notificationId(form);
  const orderRef = field(form, 'REFNO');
  const outcome = await deps.db.kysely.transaction().execute(async (trx) => {
    if (deps.db.kind === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${`ipn:${orderRef}`}))`.execute(trx);
    if (
      !(await repo.claimNotification(trx, {
        id,
        order_ref: orderRef,
        received_at: now.toISOString(),
      }))
    )
      return 'replayed' as const;
    const settle = async (
      result: NotificationOutcome,
      userId: string | null,
      planId: string | null,
    ) => {
      await repo.settleNotification(trx, id, { outcome: result, user_id: userId, plan_id: planId });
      return result;
    };
    const status = field(form, 'ORDERSTATUS').trim().toUpperCase();
    if (!PAID_STATES.has(status) || field(form, 'FRAUD_STATUS').toUpperCase() === 'DENIED')
      return settle('ignored_status', null, null);
    const productCode = field(form, 'IPN_PCODE');
    const planId = (Object.keys(payments.products) as PaidPlanId[]).find(
      (p) => payments.products[p] === productCode,
    );
    if (!planId) return settle('unknown_product', null, null);
    const licenceRef = field(form, 'IPN_LICENSE_REF') || null;
    const checkout = await repo.findCheckout(trx, field(form, 'REFNOEXT'));
    const userId =
      checkout?.user_id ?? (licenceRef ? await repo.userByProviderRef(trx, licenceRef) : undefined);
    const profile = userId
      ? await trx.selectFrom('profiles').select('id').where('id', '=', userId).executeTakeFirst()
      : undefined;
    if (!userId || !profile) return settle('unknown_order', null, planId);
    if (await repo.orderApplied(trx, orderRef)) return settle('duplicate_order', userId, planId);
    await applyPaidPlan(trx, userId, planId, now, licenceRef);
    return settle('applied', userId, planId);
  });
  // Ids and the outcome only: never the fields, the signature or the key.
  deps.logger.info({ notification: id, outcome }, 'payment notification');
  return outcome;
}
