// The environment variables of accounts and mail, validated with zod inside config.ts's schema:
// the Better Auth secret, Google sign-in (OpenID Connect), the auth rate limits and SMTP.
import { z } from 'zod';

export const authEnv = {
  /** When unset, a random secret is generated once and kept in DATA_DIR (auth/auth.secret.ts). */
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * The OPAQUE server setup (`npx @serenity-kit/opaque create-server-setup`): 171 base64url
   * characters. When unset, one is generated once and kept in DATA_DIR (auth/opaque.secret.ts).
   */
  OPAQUE_SERVER_SETUP: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{171}$/, 'must be an OPAQUE server setup (171 base64url characters)')
    .optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: z.url({ protocol: /^https?$/ }).default('https://accounts.google.com'),
  /** The window (seconds) and request count of the limits on sign-in, sign-up, reset and 2FA. */
  AUTH_RATE_LIMIT_WINDOW: z.coerce.number().int().positive().default(60),
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
  /**
   * Behind a reverse proxy: the header the proxy sets to the client's address (for example
   * x-forwarded-for; its rightmost entry, the one the proxy added, is used). Unset: the socket's.
   */
  AUTH_CLIENT_IP_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('SealVault <no-reply@localhost>'),
};

type AuthEnv = z.infer<z.ZodObject<typeof authEnv>>;

export interface AuthConfig {
  /** From BETTER_AUTH_SECRET; undefined means "use the persisted generated one". */
  secret: string | undefined;
  /** From OPAQUE_SERVER_SETUP; undefined means "use the persisted generated one". */
  opaqueServerSetup: string | undefined;
  /** Google sign-in, when both the client id and secret are set. */
  google: { clientId: string; clientSecret: string; issuer: string } | null;
  rateLimit: { window: number; max: number };
  /** Lower-case header name holding the client address behind a proxy, or undefined. */
  clientIpHeader: string | undefined;
  mail: { smtpUrl: string | undefined; from: string };
}

export function authConfigFrom(e: AuthEnv): AuthConfig {
  return {
    secret: e.BETTER_AUTH_SECRET,
    opaqueServerSetup: e.OPAQUE_SERVER_SETUP,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuer: e.GOOGLE_ISSUER.replace(/\/+$/, ''),
          }
        : null,
    rateLimit: { window: e.AUTH_RATE_LIMIT_WINDOW, max: e.AUTH_RATE_LIMIT_MAX },
    clientIpHeader: e.AUTH_CLIENT_IP_HEADER?.toLowerCase(),
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
  };
}
