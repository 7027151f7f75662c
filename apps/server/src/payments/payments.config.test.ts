import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';

const full = {
  PAYMENT_MERCHANT_CODE: '250111206876',
  PAYMENT_SECRET_KEY: 'a-secret-key',
  PAYMENT_PRODUCT_BASIC: 'B1',
  PAYMENT_PRODUCT_PRO: 'P1',
  PAYMENT_PRODUCT_UNLIMITED: 'U1',
};

describe('payment configuration', () => {
  it('is off when no PAYMENT_ variable is set', () => {
    expect(loadConfig({}).payments).toBeNull();
  });

  it('reads the merchant, the key, the product codes and the default checkout host', () => {
    expect(loadConfig(full).payments).toEqual({
      merchantCode: '250111206876',
      secretKey: 'a-secret-key',
      products: { basic: 'B1', pro: 'P1', unlimited: 'U1' },
      checkoutHost: 'https://secure.2checkout.com',
    });
  });

  it('stops naming the missing variables when only some are set', () => {
    const partial = { ...full, PAYMENT_SECRET_KEY: undefined, PAYMENT_PRODUCT_PRO: '' };
    expect(() => loadConfig(partial)).toThrow(ConfigError);
    expect(() => loadConfig(partial)).toThrow(/PAYMENT_SECRET_KEY, PAYMENT_PRODUCT_PRO/);
  });

  it('refuses a product code with odd characters and a plain-http checkout host', () => {
    expect(() => loadConfig({ ...full, PAYMENT_PRODUCT_BASIC: 'a b' })).toThrow(
      /PAYMENT_PRODUCT_BASIC/,
    );
    expect(() => loadConfig({ ...full, PAYMENT_CHECKOUT_HOST: 'http://x.test' })).toThrow(
      /PAYMENT_CHECKOUT_HOST/,
    );
  });
});
