// Leaves the app for a checkout's own page ([Note: checkout document] in the server's
// http/security.ts): a full navigation, so the provider's script never shares a document with the
// app, and every unlocked vault of this page is locked as it unloads.
import { CHECKOUT_PAGE_PATH } from '@sealvault/protocol';

export const checkoutPagePath = (reference: string): string =>
  `${CHECKOUT_PAGE_PATH}?ref=${encodeURIComponent(reference)}`;

export function openCheckoutPage(reference: string): void {
  window.location.assign(checkoutPagePath(reference));
}
