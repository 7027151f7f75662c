// @vitest-environment happy-dom
import type { CheckoutResponse } from '@sealvault/protocol';
import { afterEach, expect, it, vi } from 'vitest';
import { checkoutTexts, readCheckout, runCheckoutPage } from './checkoutPage.ts';
import { checkoutPagePath } from './open.ts';

const checkout: CheckoutResponse = {
  reference: 'a'.repeat(32),
  merchant_code: '250111206876',
  checkout_host: 'https://secure.2checkout.com',
  plan_id: 'pro',
  product_code: 'PROD-PRO',
  product_name: 'Pro',
  currency: 'USD',
  return_url: 'http://localhost:3000/subscription',
  buy_link_url: 'https://secure.2checkout.com/checkout/buy?prod=PROD-PRO',
};

/** checkout.html as the server serves it: the status line and the data element. */
function page(data: string) {
  document.body.innerHTML =
    '<p id="checkout-status" role="status">Opening…</p>' +
    `<script type="application/json" id="checkout-data">${data}</script>`;
  return () => document.getElementById('checkout-status')?.textContent;
}

afterEach(() => {
  document.body.innerHTML = '';
});

it("starts the provider's cart with the order the server put into the page", async () => {
  const status = page(JSON.stringify(checkout));
  const start = vi.fn(() => Promise.resolve('inline' as const));
  await runCheckoutPage(document, start);
  expect(start).toHaveBeenCalledWith(checkout);
  expect(status()).toBe(checkoutTexts.inline('Pro'));
});

it('says where it went when the cart could not start and the buy-link took over', async () => {
  const status = page(JSON.stringify(checkout));
  await runCheckoutPage(document, () => Promise.resolve('buy-link'));
  expect(status()).toBe(checkoutTexts.buyLink);
});

it('starts nothing without an order, or with one that is not an order', async () => {
  for (const data of ['null', '{"reference": 1}', 'not json', '[]']) {
    const status = page(data);
    const start = vi.fn(() => Promise.resolve('inline' as const));
    await runCheckoutPage(document, start);
    expect(start).not.toHaveBeenCalled();
    expect(status()).toBe(checkoutTexts.missing);
  }
  expect(readCheckout(document)).toBeNull();
});

it("leaves the app for the checkout's own page, by the order's reference", () => {
  expect(checkoutPagePath('ab12')).toBe('/checkout?ref=ab12');
});
