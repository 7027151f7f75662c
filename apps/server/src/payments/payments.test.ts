import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutResponseSchema,
  errorBodySchema,
  paymentsConfigSchema,
  subscriptionMessages,
  subscriptionResponseSchema,
} from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';
import { signIpnFields } from './ipn.ts';

const SECRET = 'test-secret-key-0123456789';
const PAYMENT_ENV = {
  PAYMENT_MERCHANT_CODE: '250111206876',
  PAYMENT_SECRET_KEY: SECRET,
  PAYMENT_PRODUCT_BASIC: 'PROD-BASIC',
  PAYMENT_PRODUCT_PRO: 'PROD-PRO',
  PAYMENT_PRODUCT_UNLIMITED: 'PROD-UNLIMITED',
};

let t: TestApp;
let bare: TestApp;
beforeAll(async () => {
  t = await createTestApp(PAYMENT_ENV);
  bare = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await bare.close();
});

/** Posts a notification as the provider does: form-encoded, no Origin, no cookie. */
const postIpn = (app: TestApp, body: string) =>
  Promise.resolve(
    app.app.request('/api/payments/ipn', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    }),
  );

let order = 1000;
function ipnFields(
  reference: string,
  over: { product?: string; status?: string; messageId?: string; refno?: string } = {},
): [string, string][] {
  order += 1;
  return [
    ['REFNO', over.refno ?? String(order)],
    ['REFNOEXT', reference],
    ['ORDERSTATUS', over.status ?? 'COMPLETE'],
    ['FRAUD_STATUS', 'APPROVED'],
    ['IPN_PID[]', '40898000'],
    ['IPN_PNAME[]', 'Pro'],
    ['IPN_PCODE[]', over.product ?? 'PROD-PRO'],
    ['IPN_LICENSE_REF[]', `LIC${order}`],
    ['MESSAGE_ID', over.messageId ?? `M${order}`],
    ['IPN_DATE', '20261122101010'],
  ];
}

async function checkout(u: TestUser, plan_id = 'pro') {
  const res = await send(t, u.cookie, 'POST', '/api/payments/checkout', { plan_id });
  expect(res.status).toBe(201);
  return checkoutResponseSchema.parse(await res.json());
}

const planOf = async (u: TestUser) =>
  subscriptionResponseSchema.parse(
    await (await send(t, u.cookie, 'GET', '/api/subscription')).json(),
  ).subscription;

describe('payments configuration', () => {
  it('reports not configured, refuses checkout with the message, and keeps the strict CSP', async () => {
    const u = await createUser(bare);
    const config = await send(bare, u.cookie, 'GET', '/api/payments/config');
    expect(paymentsConfigSchema.parse(await config.json())).toEqual({ configured: false });
    const res = await send(bare, u.cookie, 'POST', '/api/payments/checkout', { plan_id: 'pro' });
    expect(res.status).toBe(503);
    expect(errorBodySchema.parse(await res.json()).error.message).toBe(
      subscriptionMessages.paymentsNotConfigured,
    );
    const csp = config.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain('2checkout');
    expect((await postIpn(bare, 'REFNO=1')).status).toBe(404);
  });

  it('gives the merchant and product codes, and keeps the checkout host out of the CSP', async () => {
    const u = await createUser(t);
    const res = await send(t, u.cookie, 'GET', '/api/payments/config');
    expect(paymentsConfigSchema.parse(await res.json())).toEqual({
      configured: true,
      merchant_code: '250111206876',
      checkout_host: 'https://secure.2checkout.com',
      products: { basic: 'PROD-BASIC', pro: 'PROD-PRO', unlimited: 'PROD-UNLIMITED' },
    });
    // The cart runs only in the checkout's own document (checkout-page.test.ts).
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain('2checkout');
    expect(csp).toContain("default-src 'self';");
  });

  it('starts a checkout with a reference, the product code and the buy-link fallback', async () => {
    const u = await createUser(t);
    const c = await checkout(u, 'basic');
    expect(c).toMatchObject({
      product_code: 'PROD-BASIC',
      product_name: 'Basic',
      currency: 'USD',
      return_url: 'http://localhost:3000/subscription',
    });
    const link = new URL(c.buy_link_url);
    expect(link.origin).toBe('https://secure.2checkout.com');
    expect(link.searchParams.get('prod')).toBe('PROD-BASIC');
    expect(link.searchParams.get('order-ext-ref')).toBe(c.reference);
    const free = await send(t, u.cookie, 'POST', '/api/payments/checkout', { plan_id: 'free' });
    expect(free.status).toBe(400);
    expect((await planOf(u)).plan_id).toBe('free');
  });
});

describe('POST /api/payments/ipn', () => {
  it('upgrades on a correctly signed notification and answers the signed receipt', async () => {
    const u = await createUser(t);
    const c = await checkout(u);
    const before = await planOf(u);
    expect(before.plan_id).toBe('free');
    const res = await postIpn(t, signIpnFields(ipnFields(c.reference), SECRET));
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^<sig algo="sha256" date="\d{14}">[0-9a-f]{64}<\/sig>$/);
    const after = await planOf(u);
    expect(after.plan_id).toBe('pro');
    const end = new Date(after.current_period_end ?? 0).getTime();
    const inAMonth = t.clock.now.getTime() + 28 * 24 * 3_600_000;
    expect(end).toBeGreaterThanOrEqual(inAMonth);
  });

  it('changes nothing on a replay of the same notification', async () => {
    const u = await createUser(t);
    const c = await checkout(u, 'basic');
    const body = signIpnFields(ipnFields(c.reference, { product: 'PROD-BASIC' }), SECRET);
    expect((await postIpn(t, body)).status).toBe(200);
    const first = await planOf(u);
    t.clock.now = new Date(t.clock.now.getTime() + 3_600_000);
    const replay = await postIpn(t, body);
    expect(replay.status).toBe(200);
    expect(await planOf(u)).toEqual(first);
    const rows = await t.db.kysely
      .selectFrom('payment_notifications')
      .select('outcome')
      .where('user_id', '=', u.id)
      .execute();
    expect(rows.map((r) => r.outcome)).toEqual(['applied']);
    t.clock.now = new Date();
  });

  it('applies an order once even when a second notification for it arrives', async () => {
    const u = await createUser(t);
    const c = await checkout(u);
    const fields = ipnFields(c.reference);
    await postIpn(t, signIpnFields(fields, SECRET));
    const first = await planOf(u);
    const again = fields.map(([k, v]): [string, string] => [k, k === 'MESSAGE_ID' ? `${v}-2` : v]);
    expect((await postIpn(t, signIpnFields(again, SECRET))).status).toBe(200);
    expect(await planOf(u)).toEqual(first);
  });

  it('refuses a badly signed notification with 403 and changes nothing', async () => {
    const u = await createUser(t);
    const c = await checkout(u);
    const forged = signIpnFields(ipnFields(c.reference), 'not-the-secret-key');
    const res = await postIpn(t, forged);
    expect(res.status).toBe(403);
    const tampered = signIpnFields(
      ipnFields(c.reference, { product: 'PROD-BASIC' }),
      SECRET,
    ).replace('PROD-BASIC', 'PROD-UNLIMITED');
    expect((await postIpn(t, tampered)).status).toBe(403);
    expect((await planOf(u)).plan_id).toBe('free');
  });

  it('refuses an unsigned notification with 400 and changes nothing', async () => {
    const u = await createUser(t);
    const c = await checkout(u);
    const unsigned = new URLSearchParams(ipnFields(c.reference)).toString();
    expect((await postIpn(t, unsigned)).status).toBe(400);
    expect((await postIpn(t, `${unsigned}&HASH=0123456789abcdef`)).status).toBe(400);
    const json = await t.app.request('/api/payments/ipn', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect((await planOf(u)).plan_id).toBe('free');
  });

  it('acknowledges but ignores unpaid states, unknown products and unknown orders', async () => {
    const u = await createUser(t);
    const c = await checkout(u);
    for (const fields of [
      ipnFields(c.reference, { status: 'PENDING' }),
      ipnFields(c.reference, { product: 'SOMETHING-ELSE' }),
      ipnFields('0'.repeat(32)),
    ]) {
      expect((await postIpn(t, signIpnFields(fields, SECRET))).status).toBe(200);
    }
    expect((await planOf(u)).plan_id).toBe('free');
  });

  it('is exempt from the same-origin rule: the provider may send its own Origin', async () => {
    const u = await createUser(t);
    const c = await checkout(u, 'unlimited');
    const res = await t.app.request('/api/payments/ipn', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://secure.2checkout.com',
      },
      body: signIpnFields(ipnFields(c.reference, { product: 'PROD-UNLIMITED' }), SECRET),
    });
    expect(res.status).toBe(200);
    expect((await planOf(u)).plan_id).toBe('unlimited');
  });

  it('refuses a notification larger than 64 KiB with 413', async () => {
    const res = await postIpn(t, `REFNO=1&PAD=${'x'.repeat(70 * 1024)}`);
    expect(res.status).toBe(413);
  });

  it('never logs the signature or the secret key', async () => {
    const u = await createUser(t);
    const c = await checkout(u);
    const body = signIpnFields(ipnFields(c.reference), SECRET);
    await postIpn(t, body);
    const signature = new URLSearchParams(body).get('SIGNATURE_SHA2_256') ?? '';
    expect(t.logs()).not.toContain(signature);
    expect(t.logs()).not.toContain(SECRET);
  });
});
