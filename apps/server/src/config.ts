// Server configuration from environment variables, validated with zod at start-up.
// A bad value stops the server with a message that names the variable.
import path from 'node:path';
import { z } from 'zod';
import { authConfigFrom, authEnv, type AuthConfig } from './auth/auth.config.ts';
import { blobsConfigFrom, blobsEnv, type BlobsConfig } from './blobs/blobs.config.ts';
import { landingConfigFrom, landingEnv } from './landing/landing.config.ts';
import type { LandingContent } from '@sealvault/protocol';
import {
  paymentsConfigFrom,
  paymentsEnv,
  type PaymentsConfig,
} from './payments/payments.config.ts';
import { storageConfigFrom, storageEnv, type StorageConfig } from './storage/storage.config.ts';
import { metricsEnv } from './metrics/metrics.config.ts';
import { signupConfigFrom, signupEnv, type SignupConfig } from './auth/signup.config.ts';
import { plansConfigFrom, plansEnv, type PlansConfig } from './plans/plans.config.ts';

const port = z.coerce.number().int().min(0).max(65535);

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FILE: z.string().min(1).optional(),
  WEB_DIST: z.string().min(1).optional(),
  UPLOAD_EXPIRY_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  UPLOAD_MIN_FREE_MB: z.coerce.number().int().nonnegative().default(512),
  /** How often the periodic jobs run (file sweep, subscription changes); their defaults without. */
  SWEEP_INTERVAL_SECONDS: z.coerce.number().int().positive().max(86_400).optional(),
  ...authEnv,
  ...paymentsEnv,
  ...storageEnv,
  ...blobsEnv,
  ...landingEnv,
  ...metricsEnv,
  ...signupEnv,
  ...plansEnv,
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  /** The origin browsers use to reach this server; state changes from other origins are refused. */
  publicUrl: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Append logs to this file instead of standard output. */
  logFile: string | undefined;
  /** Absolute path of the built web app (apps/web/dist). */
  webDist: string;
  /** Unfinished uploads expire this long after creation and are swept (files/uploads.sweep.ts). */
  uploadExpiryHours: number;
  /** SWEEP_INTERVAL_SECONDS in ms; undefined: each job's own interval. */
  sweepIntervalMs: number | undefined;
  /** Below this much free space (MiB) on the data dir, new uploads and PATCHes get 507. */
  uploadMinFreeMb: number;
  /** Accounts, sessions and mail (auth/auth.config.ts). */
  auth: AuthConfig;
  /** The card payment provider (payments/payments.config.ts); null when not configured. */
  payments: PaymentsConfig | null;
  /** The cloud storage providers (storage/storage.config.ts); null ones are not configured. */
  storage: StorageConfig;
  /** Where blobs live: `${dataDir}/blobs` or an S3 bucket (blobs/blobs.config.ts). */
  blobs: BlobsConfig;
  /** The landing page's statistics and testimonials (LANDING_CONFIG, landing/landing.config.ts). */
  landing: LandingContent;
  /** GET /metrics's Bearer token (METRICS_TOKEN, metrics/metrics.config.ts); unset: no metrics. */
  metricsToken: string | undefined;
  /** Who may create an account: SIGNUP_MODE (auth/signup.config.ts, issue 33). */
  signup: SignupConfig;
  /** SaaS plans or one's own instance: PLANS_MODE, DEFAULT_PLAN, PLAN_MAX_* (plans/plans.config.ts). */
  plans: PlansConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty variables count as unset, as in most twelve-factor apps.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${detail}`);
  }
  const e = parsed.data;
  if (e.DATABASE_URL && !e.BETTER_AUTH_SECRET) {
    // Several instances share the database: each must sign and check sessions with one secret,
    // which a secret generated into each instance's own DATA_DIR would not be.
    throw new ConfigError(
      'Invalid configuration: BETTER_AUTH_SECRET must be set when DATABASE_URL is set (the same secret of at least 32 characters on every instance).',
    );
  }
  if (e.DATABASE_URL && !e.OPAQUE_SERVER_SETUP) {
    // Likewise the OPAQUE server setup: a record registered through one instance must open on
    // every other ([Note: OPAQUE passwords] in auth/opaque.password.ts).
    throw new ConfigError(
      'Invalid configuration: OPAQUE_SERVER_SETUP must be set when DATABASE_URL is set (the same setup on every instance: npx @serenity-kit/opaque create-server-setup).',
    );
  }
  let payments: PaymentsConfig | null;
  try {
    payments = paymentsConfigFrom(e);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  let blobs: BlobsConfig;
  try {
    blobs = blobsConfigFrom(e, dataDir);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  let landing: LandingContent;
  try {
    landing = landingConfigFrom(e.LANDING_CONFIG);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  let plans: PlansConfig;
  try {
    plans = plansConfigFrom(e);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'vault.db') },
    publicUrl: new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin,
    logLevel: e.LOG_LEVEL,
    logFile: e.LOG_FILE ? path.resolve(e.LOG_FILE) : undefined,
    webDist: path.resolve(e.WEB_DIST ?? defaultWebDist),
    uploadExpiryHours: e.UPLOAD_EXPIRY_HOURS,
    sweepIntervalMs: e.SWEEP_INTERVAL_SECONDS && e.SWEEP_INTERVAL_SECONDS * 1000,
    uploadMinFreeMb: e.UPLOAD_MIN_FREE_MB,
    auth: authConfigFrom(e),
    payments,
    storage: storageConfigFrom(e),
    blobs,
    landing,
    metricsToken: e.METRICS_TOKEN,
    signup: signupConfigFrom(e),
    plans,
  };
}
