// What the checkout page (checkout.html) does: read the order's details the server put into its
// JSON data element, then start the provider's cart, saying on the page what is happening. Nothing
// here calls our API (the page's CSP would not let it: [Note: checkout document] in the server's
// http/security.ts).
import type { CheckoutResponse } from '@sealvault/protocol';
import { startCheckout } from './inlineCart.ts';
import { i18n, msg } from '../i18n/i18n.ts';

export const checkoutTexts = {
  missing: msg(
    'This checkout could not be opened. Go back to your subscription and press Pay Now again.',
  ),
  opening: (plan: string) => i18n.t('Opening the checkout for the {{plan}} plan…', { plan }),
  inline: (plan: string) =>
    i18n.t(
      'Complete your payment for the {{plan}} plan in the checkout. When it is done you are taken back to your subscription.',
      { plan },
    ),
  buyLink: msg("Taking you to the payment provider's checkout…"),
};

const STRING_FIELDS = [
  'reference',
  'merchant_code',
  'checkout_host',
  'plan_id',
  'product_code',
  'product_name',
  'return_url',
  'buy_link_url',
] as const;

/** The order's details from #checkout-data, or null when the page has none. */
export function readCheckout(doc: Document): CheckoutResponse | null {
  let data: unknown;
  try {
    data = JSON.parse(doc.getElementById('checkout-data')?.textContent ?? 'null');
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  if (!STRING_FIELDS.every((k) => typeof record[k] === 'string')) return null;
  return data as CheckoutResponse;
}

export async function runCheckoutPage(
  doc: Document,
  start: (c: CheckoutResponse) => Promise<'inline' | 'buy-link'> = startCheckout,
): Promise<void> {
  const status = doc.getElementById('checkout-status');
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  const checkout = readCheckout(doc);
  if (!checkout) return say(i18n.t(checkoutTexts.missing));
  say(checkoutTexts.opening(checkout.product_name));
  const how = await start(checkout);
  say(
    how === 'inline' ? checkoutTexts.inline(checkout.product_name) : i18n.t(checkoutTexts.buyLink),
  );
}
