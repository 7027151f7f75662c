// OPAQUE account passwords (RFC 9807, issue 30; docs/auth.md "OPAQUE"): the bodies and answers of
// the server's /api/auth/opaque/* endpoints, shared by the web app and the server. Every message is
// a base64url string of the @serenity-kit/opaque library; the library checks their contents.
import { z } from 'zod';

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A server-chosen id (32 random bytes, base64url). */
const opaqueId = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be an id');

export const opaqueRegisterStartBodySchema = z.object({ registrationRequest: b64url(128) });
export const opaqueRegisterStartResponseSchema = z.object({
  registrationId: opaqueId,
  registrationResponse: z.string(),
});

export const opaqueRegisterFinishBodySchema = z.object({
  registrationId: opaqueId,
  registrationRecord: b64url(1024),
});
/** The one-time token standing in for the new password (sign-up, change, reset). */
export const opaqueRegisterFinishResponseSchema = z.object({ recordToken: z.string() });

export const opaqueLoginStartBodySchema = z.object({
  email: z.string().trim().min(1).max(320),
  startLoginRequest: b64url(512),
});
/** `legacy`: the account still has a password hash and signs in the old way once, then moves. */
export const opaqueLoginStartResponseSchema = z.union([
  z.object({ loginId: opaqueId, loginResponse: z.string() }),
  z.object({ legacy: z.literal(true) }),
]);

export const opaqueLoginFinishBodySchema = z.object({
  loginId: opaqueId,
  finishLoginRequest: b64url(512),
});
/** The single-use proof of the password (60 s) that goes where the password went. */
export const opaqueLoginFinishResponseSchema = z.object({ ticket: z.string() });

/** The header a legacy sign-in carries its new record token in (it moves to OPAQUE then). */
export const OPAQUE_MOVE_HEADER = 'x-sealvault-opaque-record';
