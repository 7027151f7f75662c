// Turning Better Auth's error answers into the texts the screens show. The spec (§2, §8) shows the
// server's message when there is one and a fixed fallback ('Login failed', ...) otherwise; a rate
// limit (429) always reads the same, and a server error (5xx) shows the fallback, never its raw
// text, except a full server disk, which says so. (Our own API's errors go through userMessage in
// @sealvault/protocol.)
import { messages } from '@sealvault/protocol';

/** The error shape Better Auth's client returns (`{ data, error }`), reduced to what we read. */
export interface AuthClientError {
  code?: string | undefined;
  message?: string | undefined;
  status?: number | undefined;
  /**
   * Our API's error (`{ error: { code, message } }`) when the app's error handler answered instead
   * of Better Auth: a full server disk is 503 'storage_full', with a text for users.
   */
  error?: { code?: string | undefined; message?: string | undefined } | undefined;
}

/** Better Auth's code for a sign-in whose e-mail address is not verified yet. */
export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

export function authErrorMessage(error: AuthClientError | null | undefined, fallback: string) {
  if (error?.status === 429) return messages.auth.tooManyRequests;
  const full = error?.error?.code === 'storage_full' ? error.error.message?.trim() : undefined;
  if (full) return full;
  if (error?.status !== undefined && error.status >= 500) return fallback;
  const message = error?.message?.trim();
  return message ? message : fallback;
}

export function isEmailNotVerified(error: AuthClientError | null | undefined): boolean {
  return error?.code === EMAIL_NOT_VERIFIED;
}
