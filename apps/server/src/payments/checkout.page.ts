// GET /checkout?ref=<reference>: the document a checkout runs in [Note: checkout document in
// http/security.ts]. It is the built apps/web/checkout.html with the order's details (the cart's
// settings and the buy-link, as POST /api/payments/checkout gave them) put into its JSON data
// element; its script starts the provider's cart. Only the user who started the checkout gets it:
// without a session the visitor goes to /auth; an unknown reference, another user's, or a server
// without payments is a 404 page. Never cached.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { CHECKOUT_PAGE_PATH } from '@sealvault/protocol';
import type { AppEnv } from '../http/context.ts';
import { checkoutOf } from './payments.service.ts';

/** The element of checkout.html the order's details go into (JSON, never executed). */
const DATA_ELEMENT = /<script type="application\/json" id="checkout-data">\s*null\s*<\/script>/;
const REFERENCE = /^[0-9a-f]{32}$/;

/** JSON that cannot end its <script> element early: '<' (as in '</script>') is escaped. */
const inertJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function notFoundPage(c: Context<AppEnv>) {
  c.header('Cache-Control', 'no-store');
  return c.html(
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>Checkout not found — SealVault</title>' +
      '<p>This checkout was not found. <a href="/subscription">Back to Subscription</a></p></html>',
    404,
  );
}

export function checkoutPageRoutes(webDist: string): Hono<AppEnv> {
  return new Hono<AppEnv>().get(CHECKOUT_PAGE_PATH, async (c) => {
    const session = await c.var.auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) return c.redirect('/auth', 302);
    const reference = c.req.query('ref') ?? '';
    if (!REFERENCE.test(reference)) return notFoundPage(c);
    const checkout = await checkoutOf(c.var, session.user.id, reference);
    if (!checkout) return notFoundPage(c);
    let template: string;
    try {
      template = await fs.readFile(path.join(webDist, 'checkout.html'), 'utf8');
    } catch {
      c.var.logger.error({ webDist }, 'checkout.html missing: is the web app built?');
      return c.text('The checkout page is not available.', 503);
    }
    if (!DATA_ELEMENT.test(template)) {
      c.var.logger.error({ webDist }, 'checkout.html has no data element');
      return c.text('The checkout page is not available.', 503);
    }
    const data = `<script type="application/json" id="checkout-data">${inertJson(checkout)}</script>`;
    const page = template.replace(DATA_ELEMENT, () => data);
    c.header('Cache-Control', 'no-store');
    return c.html(page);
  });
}
