// @vitest-environment jsdom
import type { CheckoutResponse } from '@sealvault/protocol';
import { afterEach, expect, it, vi } from 'vitest';

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

/** A fresh module per test: the loader keeps the loaded cart for the page's lifetime. */
async function load() {
  vi.resetModules();
  return (await import('./inlineCart.ts')).startCheckout;
}

afterEach(() => {
  vi.restoreAllMocks();
  delete window.TwoCoInlineCart;
  document.head.innerHTML = '';
});

function fakeCart() {
  return {
    setup: { setMerchant: vi.fn(), setConfig: vi.fn() },
    register: vi.fn(),
    cart: {
      setCurrency: vi.fn(),
      setReturnMethod: vi.fn(),
      setOrderExternalRef: vi.fn(),
      checkout: vi.fn(),
    },
    products: { removeAll: vi.fn(), add: vi.fn() },
  };
}

/** Plays the provider's script: when our loader appends it, the cart appears and it loads. */
function serveScript(cart: ReturnType<typeof fakeCart> | null, ok = true) {
  const append = document.head.append.bind(document.head);
  vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
    append(...nodes);
    const script = nodes[0] as HTMLScriptElement;
    queueMicrotask(() => {
      if (cart) window.TwoCoInlineCart = cart;
      script.dispatchEvent(new Event(ok ? 'load' : 'error'));
    });
  });
}

it('configures the inline cart as spec §7 says and starts the checkout', async () => {
  const startCheckout = await load();
  const cart = fakeCart();
  serveScript(cart);
  expect(await startCheckout(checkout)).toBe('inline');
  const script = document.head.querySelector('script');
  expect(script?.src).toBe('https://secure.2checkout.com/checkout/client/twoCoInlineCart.js');
  expect(cart.setup.setConfig).toHaveBeenCalledWith('cart', {
    host: 'https://secure.2checkout.com',
    customization: 'inline-one-step',
  });
  expect(cart.setup.setMerchant).toHaveBeenCalledWith('250111206876');
  expect(cart.cart.setCurrency).toHaveBeenCalledWith('USD');
  expect(cart.products.removeAll).toHaveBeenCalled();
  expect(cart.products.add).toHaveBeenCalledWith(
    expect.objectContaining({ name: 'Pro', code: 'PROD-PRO', quantity: 1, type: 'digital' }),
  );
  expect(cart.cart.setOrderExternalRef).toHaveBeenCalledWith(checkout.reference);
  expect(cart.cart.setReturnMethod).toHaveBeenCalledWith({
    type: 'redirect',
    url: `${window.location.origin}/subscription`,
  });
  expect(cart.cart.checkout).toHaveBeenCalled();
});

it('clicks the hidden buy-link when the cart cannot load', async () => {
  const startCheckout = await load();
  serveScript(null, false);
  const clicked: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this.href);
  });
  expect(await startCheckout(checkout)).toBe('buy-link');
  expect(clicked).toEqual([checkout.buy_link_url]);
  expect(document.querySelector('a[hidden]')).toBeNull();
});
