// /api/payments: the card payment provider (docs/product.md §7).
//   GET  /config    signed-in: whether payments are configured, the merchant and product codes
//   POST /checkout  signed-in: starts a checkout for a paid plan (503 when not configured)
//   POST /ipn       the provider's notification, application/x-www-form-urlencoded, authenticated
//                   by its signature only ([Note: IPN signature] in ipn.ts); exempt from the
//                   same-origin rule in app.ts because it comes from the provider's servers.
// Unsigned or badly signed notifications are refused with a 4xx and change nothing; a handled
// one (first time or replayed) is answered with the signed receipt the provider expects.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { checkoutRequestSchema } from '@sealvault/protocol';
import { requireUser } from '../auth/auth.middleware.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError, badRequest, notFound } from '../http/errors.ts';
import { jsonBody } from '../http/validate.ts';
import { saasOnly } from '../plans/saas-only.ts';
import { field, ipnReceipt, parseIpnForm, verifyIpn } from './ipn.ts';
import * as service from './payments.service.ts';

/** The path the provider posts to; app.ts exempts it from the same-origin check. */
export const IPN_PATH = '/api/payments/ipn';
const MAX_IPN_BYTES = 64 * 1024;

export function paymentsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/config', requireUser(), (c) =>
    c.json(service.publicPaymentsConfig(c.var.config.payments)),
  );

  // No checkout on a self-hosted instance (issue 33, plans/saas-only.ts).
  app.post('/checkout', requireUser(), saasOnly(), async (c) => {
    const { plan_id } = await jsonBody(c, checkoutRequestSchema);
    return c.json(await service.startCheckout(c.var, c.var.user.id, plan_id), 201);
  });

  app.post(
    '/ipn',
    bodyLimit({
      maxSize: MAX_IPN_BYTES,
      onError: () => {
        throw new HttpError(413, 'payload_too_large', 'The notification is too large.');
      },
    }),
    async (c) => {
      const payments = c.var.config.payments;
      if (!payments) throw notFound();
      const type = c.req.header('content-type') ?? '';
      if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded'))
        throw badRequest('The notification must be application/x-www-form-urlencoded.');
      const form = parseIpnForm(await c.req.text());
      const verdict = verifyIpn(form, payments.secretKey);
      if (!verdict.ok) {
        c.var.logger.warn({ reason: verdict.reason }, 'payment notification refused');
        if (verdict.reason === 'unsigned') throw badRequest('The notification is not signed.');
        throw new HttpError(403, 'forbidden', 'The notification signature is not valid.');
      }
      if (!field(form, 'REFNO')) throw badRequest('The notification names no order.');
      await service.handleNotification(c.var, payments, form);
      return c.text(ipnReceipt(form, payments.secretKey, verdict.algorithm, c.var.now()));
    },
  );

  return app;
}
