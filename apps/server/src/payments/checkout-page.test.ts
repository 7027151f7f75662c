// [Note: checkout document] in http/security.ts: the payment provider's script is allowed only in
// the checkout's own page, never in the app's pages, and that page is its starter's alone.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutResponseSchema, type CheckoutResponse } from '@sealvault/protocol';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { createUser, type TestUser } from '../testing/users.ts';
import { send } from '../testing/vaults.ts';

const HOST = 'https://secure.2checkout.com';
const PAYMENT_ENV = {
  PAYMENT_MERCHANT_CODE: '250111206876',
  PAYMENT_SECRET_KEY: 'test-secret-key-0123456789',
  PAYMENT_PRODUCT_BASIC: 'PROD-BASIC',
  PAYMENT_PRODUCT_PRO: 'PROD-PRO',
  PAYMENT_PRODUCT_UNLIMITED: 'PROD-UNLIMITED',
};
/** The built checkout.html's shape: what matters is its JSON data element. */
const TEMPLATE =
  '<!doctype html><html><head><script src="/theme-init.js"></script></head><body><main>Checkout</main>' +
  '<script type="application/json" id="checkout-data">\n      null\n    </script>' +
  '<script type="module" src="/assets/checkout-abc.js"></script></body></html>';

let t: TestApp;
let bare: TestApp;
beforeAll(async () => {
  t = await createTestApp(PAYMENT_ENV);
  bare = await createTestApp();
  for (const app of [t, bare]) {
    fs.mkdirSync(app.config.webDist, { recursive: true });
    fs.writeFileSync(path.join(app.config.webDist, 'checkout.html'), TEMPLATE);
    fs.writeFileSync(path.join(app.config.webDist, 'index.html'), '<!doctype html><div id=root>');
  }
});
afterAll(async () => {
  await t.close();
  await bare.close();
});

const csp = (res: Response) => res.headers.get('content-security-policy') ?? '';
const directive = (policy: string, name: string) =>
  policy.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

async function startCheckout(u: TestUser, plan_id = 'pro'): Promise<CheckoutResponse> {
  const res = await send(t, u.cookie, 'POST', '/api/payments/checkout', { plan_id });
  expect(res.status).toBe(201);
  return checkoutResponseSchema.parse(await res.json());
}

const page = (app: TestApp, u: TestUser | null, ref: string) =>
  app.request(`/checkout?ref=${ref}`, { headers: u ? { cookie: u.cookie } : {} });

/** The order details the page carries in its data element. */
function dataOf(html: string): unknown {
  const m = /<script type="application\/json" id="checkout-data">(.*?)<\/script>/s.exec(html);
  return m ? (JSON.parse(m[1] ?? 'null') as unknown) : undefined;
}

describe("the app's pages", () => {
  it("never allow the provider's script, even with payments configured", async () => {
    const u = await createUser(t);
    const vaultId = '0b8d1f2e-3c4a-4b5c-8d6e-7f8091a2b3c4';
    for (const p of ['/', '/subscription', '/dashboard', `/vault/${vaultId}`, '/api/health']) {
      const res = await t.request(p, { headers: { cookie: u.cookie } });
      expect(csp(res), p).not.toContain(HOST);
      expect(directive(csp(res), 'script-src'), p).toBe("script-src 'self' 'wasm-unsafe-eval'");
    }
  });
});

describe('GET /checkout', () => {
  it("is the checkout's own document: its CSP allows the provider's script and not our API", async () => {
    const u = await createUser(t);
    const c = await startCheckout(u);
    const res = await page(t, u, c.reference);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const policy = csp(res);
    expect(directive(policy, 'script-src')).toBe(`script-src 'self' ${HOST}`);
    expect(directive(policy, 'frame-src')).toBe(`frame-src ${HOST}`);
    expect(directive(policy, 'connect-src')).toBe(`connect-src ${HOST}`);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('wasm-unsafe-eval');
    // The order's details, as the checkout call gave them, in the inert data element.
    const html = await res.text();
    expect(checkoutResponseSchema.parse(dataOf(html))).toEqual(c);
    expect(html).toContain('<script type="module" src="/assets/checkout-abc.js"></script>');
  });

  it('is only for the user who started the checkout', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const c = await startCheckout(owner, 'basic');
    const theirs = await page(t, other, c.reference);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain(c.reference);
    expect((await page(t, owner, 'f'.repeat(32))).status).toBe(404);
    expect((await page(t, owner, '../etc/passwd')).status).toBe(404);
    expect((await t.request('/checkout', { headers: { cookie: owner.cookie } })).status).toBe(404);

    const anonymous = await page(t, null, c.reference);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/auth');
  });

  it('is a 404 page, with the strict CSP, on a server without payments', async () => {
    const u = await createUser(bare);
    const res = await page(bare, u, 'a'.repeat(32));
    expect(res.status).toBe(404);
    expect(directive(csp(res), 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
  });

  it('cannot be broken out of by the data it carries', async () => {
    const u = await createUser(t);
    const c = await startCheckout(u);
    await t.db.kysely
      .updateTable('subscription_plans')
      .set({ name: 'Pro</script><script>alert(1)</script>' })
      .where('id', '=', 'pro')
      .execute();
    try {
      const html = await (await page(t, u, c.reference)).text();
      expect(html).not.toContain('</script><script>alert(1)');
      expect(checkoutResponseSchema.parse(dataOf(html)).product_name).toBe(
        'Pro</script><script>alert(1)</script>',
      );
    } finally {
      await t.db.kysely
        .updateTable('subscription_plans')
        .set({ name: 'Pro' })
        .where('id', '=', 'pro')
        .execute();
    }
  });
});
