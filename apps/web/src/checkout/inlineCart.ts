// The card payment provider's inline cart (docs/product.md §7; 2Checkout's TwoCoInlineCart). Its script is
// loaded from the provider's checkout host in the checkout's own page only (checkout.html; the
// server's CSP allows that host there and nowhere else: [Note: checkout document] in the server's
// http/security.ts). The cart uses the 'inline-one-step' customisation, USD, one product by its
// code (the plan's catalog product, non-tangible, billed monthly), quantity 1, our order
// reference, and a redirect back to {origin}/subscription, a fresh app page without the
// provider's script. If the cart cannot start, a hidden buy-link for the same product is clicked
// instead.
import type { CheckoutResponse } from '@sealvault/protocol';

interface InlineCart {
  setup: { setMerchant(code: string): void; setConfig(ns: string, config: object): void };
  register(): void;
  cart: {
    setCurrency(currency: string): void;
    setReturnMethod(method: { type: 'redirect'; url: string }): void;
    setOrderExternalRef(reference: string): void;
    checkout(): void;
  };
  products: {
    removeAll(): void;
    add(product: {
      name: string;
      code: string;
      quantity: number;
      type: 'digital';
      recurrence: string;
    }): void;
  };
}

declare global {
  interface Window {
    TwoCoInlineCart?: InlineCart;
  }
}

const LOAD_TIMEOUT_MS = 15_000;
let loading: Promise<InlineCart> | null = null;

function loadInlineCart(host: string, merchant: string): Promise<InlineCart> {
  loading ??= new Promise<InlineCart>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${host}/checkout/client/twoCoInlineCart.js`;
    script.async = true;
    const timer = window.setTimeout(() => reject(new Error('timeout')), LOAD_TIMEOUT_MS);
    script.onload = () => {
      window.clearTimeout(timer);
      const cart = window.TwoCoInlineCart;
      if (!cart) return reject(new Error('the cart did not start'));
      cart.setup.setConfig('app', { merchant });
      cart.setup.setConfig('cart', { host, customization: 'inline-one-step' });
      cart.register();
      resolve(cart);
    };
    script.onerror = () => {
      window.clearTimeout(timer);
      reject(new Error('the cart could not be loaded'));
    };
    document.head.append(script);
  }).catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** The fallback of docs/product.md §7: a hidden buy-link with the product code, clicked. */
export function clickBuyLink(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener noreferrer';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

/** Opens the provider's checkout for this checkout; resolves once it has been handed over. */
export async function startCheckout(checkout: CheckoutResponse): Promise<'inline' | 'buy-link'> {
  try {
    const cart = await loadInlineCart(checkout.checkout_host, checkout.merchant_code);
    cart.setup.setMerchant(checkout.merchant_code);
    cart.cart.setCurrency('USD');
    cart.products.removeAll();
    cart.products.add({
      name: checkout.product_name,
      code: checkout.product_code,
      quantity: 1,
      type: 'digital',
      recurrence: '1:MONTH',
    });
    cart.cart.setOrderExternalRef(checkout.reference);
    cart.cart.setReturnMethod({ type: 'redirect', url: `${window.location.origin}/subscription` });
    cart.cart.checkout();
    return 'inline';
  } catch {
    clickBuyLink(checkout.buy_link_url);
    return 'buy-link';
  }
}
