// Passkeys to sign in (issue 30, docs/auth.md "Passkeys"): the shapes the web app and the server
// share. The WebAuthn ceremonies themselves (options, attestation, assertion) are SimpleWebAuthn's
// JSON types; the server checks them with @simplewebauthn/server, which is the validation of
// those bodies beyond the outline here.
import { z } from 'zod';

export const PASSKEY_NAME_MAX = 64;
/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 20;

export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1, 'Please enter a name for this passkey.')
  .max(PASSKEY_NAME_MAX, `A passkey name has at most ${PASSKEY_NAME_MAX} characters.`);

/** A WebAuthn response as the browser's SimpleWebAuthn encodes it (JSON, base64url fields). */
const webAuthnResponseSchema = z
  .object({
    id: z.string().min(1).max(1366),
    rawId: z.string().min(1).max(1366),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  })
  .loose();

export const passkeyRegisterBodySchema = z.object({
  name: passkeyNameSchema,
  response: webAuthnResponseSchema,
});
export const passkeySignInBodySchema = z.object({ response: webAuthnResponseSchema });
export const passkeyRenameBodySchema = z.object({
  id: z.string().min(1).max(64),
  name: passkeyNameSchema,
});
export const passkeyRemoveBodySchema = z.object({ id: z.string().min(1).max(64) });

/** An ISO date; Better Auth's client turns dates in its answers into Date objects. */
const isoDate = z
  .union([z.string(), z.date()])
  .transform((d) => (d instanceof Date ? d.toISOString() : d));

/** One passkey as Settings lists it. */
export const passkeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDate,
  lastUsedAt: isoDate.nullable(),
  /** The authenticator says the passkey is synced (a "multi-device" credential). */
  backedUp: z.boolean(),
});
export type PasskeySummary = z.output<typeof passkeySummarySchema>;
export const passkeyListSchema = z.object({ passkeys: z.array(passkeySummarySchema) });

export const passkeyMessages = {
  signInFailed: 'Sign-in with a passkey failed. Try again, or sign in with your password.',
  unknownPasskey:
    'This passkey is not registered with SealVault. Sign in with your password, then add it in Settings.',
  addFailed: 'The passkey could not be added. Please try again.',
  alreadyAdded: 'This passkey is already added to your account.',
  tooMany: `You can have at most ${MAX_PASSKEYS} passkeys. Remove one first.`,
  lastSignInMethod:
    'This passkey is your only way to sign in. Add a password, Google or another passkey before removing it.',
  notFound: 'Passkey not found',
  unsupported: 'This browser cannot use passkeys.',
  cancelled: 'The passkey request was cancelled or timed out.',
} as const;
