// What a screen shows when something it asked for failed (docs/product.md §8: "Server error messages are
// shown as returned", and the spec's own fallback otherwise). A request can fail without a message
// meant for users: a 500 (the server's generic text, or a proxy's text/plain 'Internal Server
// Error' that apiErrorFrom turns into its status text), a body that is not our error shape, a
// lost connection (fetch's TypeError) or an answer that does not parse. Those show the caller's
// fallback ('Failed to rename file', 'Failed to delete vault', ...), never the raw text.
import { z } from 'zod';
import { ApiError } from './client.ts';

/**
 * The message of `err` that is meant for a user, or null when it has none:
 * - an ApiError: the server's message for a 4xx whose code is not 'internal', and for a full disk
 *   ('storage_full': a 507 on uploads, a 503 on other writes, that says what happened); null for
 *   any other 5xx or 'internal';
 * - fetch's TypeError (network failure), a SyntaxError, a ZodError (an answer that does not
 *   parse), a DOMException or a RangeError: null, their texts are for developers;
 * - any other Error (the app's own, e.g. 'Vault is not unlocked', the crypto and storage errors
 *   whose messages are safe to show): its message, if it has one.
 */
export function messageForUser(err: unknown): string | null {
  if (err instanceof ApiError) {
    if (err.code === 'internal') return null;
    if (err.status >= 500 && err.code !== 'storage_full') return null;
    return err.message.trim() || null;
  }
  if (!(err instanceof Error) || isDeveloperError(err)) return null;
  return err.message.trim() || null;
}

/** The text to show for a failed action: messageForUser(err), else the spec's `fallback`. */
export function userMessage(err: unknown, fallback: string): string {
  return messageForUser(err) ?? fallback;
}

function isDeveloperError(err: Error): boolean {
  return (
    err instanceof TypeError ||
    err instanceof SyntaxError ||
    err instanceof RangeError ||
    err instanceof z.ZodError ||
    (typeof DOMException !== 'undefined' && err instanceof DOMException)
  );
}
