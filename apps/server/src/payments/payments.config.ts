// The environment variables of the card payment provider (docs/product.md §7: an inline cart with a merchant
// code and one product code per paid plan; the notifications are signed with the secret key).
// Validated with zod inside config.ts's schema. Payments are configured only when the merchant
// code, the secret key and all three product codes are set; setting some but not all stops the
// server with a message naming the missing ones. Without any, 'Pay Now' says payments are not
// configured on this server.
import { z } from 'zod';

const code = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'may only hold letters, digits, "-" and "_"');

export const paymentsEnv = {
  PAYMENT_MERCHANT_CODE: code.optional(),
  /** The provider's secret key: signs the notifications (payments/ipn.ts). Never logged. */
  PAYMENT_SECRET_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
  PAYMENT_PRODUCT_BASIC: code.optional(),
  PAYMENT_PRODUCT_PRO: code.optional(),
  PAYMENT_PRODUCT_UNLIMITED: code.optional(),
  PAYMENT_CHECKOUT_HOST: z.url({ protocol: /^https$/ }).default('https://secure.2checkout.com'),
};

type PaymentsEnv = z.infer<z.ZodObject<typeof paymentsEnv>>;

export interface PaymentsConfig {
  merchantCode: string;
  secretKey: string;
  products: { basic: string; pro: string; unlimited: string };
  /** Origin of the provider's checkout (script, frames and buy-link). */
  checkoutHost: string;
}

const required = [
  'PAYMENT_MERCHANT_CODE',
  'PAYMENT_SECRET_KEY',
  'PAYMENT_PRODUCT_BASIC',
  'PAYMENT_PRODUCT_PRO',
  'PAYMENT_PRODUCT_UNLIMITED',
] as const;

/** null when payments are not configured; throws naming the missing variables when half-set. */
export function paymentsConfigFrom(e: PaymentsEnv): PaymentsConfig | null {
  const missing = required.filter((k) => e[k] === undefined);
  if (missing.length === required.length) return null;
  if (missing.length > 0)
    throw new Error(`${missing.join(', ')}: required when any PAYMENT_ variable is set`);
  return {
    merchantCode: e.PAYMENT_MERCHANT_CODE ?? '',
    secretKey: e.PAYMENT_SECRET_KEY ?? '',
    products: {
      basic: e.PAYMENT_PRODUCT_BASIC ?? '',
      pro: e.PAYMENT_PRODUCT_PRO ?? '',
      unlimited: e.PAYMENT_PRODUCT_UNLIMITED ?? '',
    },
    checkoutHost: new URL(e.PAYMENT_CHECKOUT_HOST).origin,
  };
}
