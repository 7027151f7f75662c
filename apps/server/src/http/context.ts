// What every request handler can reach through c.var.
import type { Auth } from '../auth/auth.ts';
import type { SessionUser } from '../auth/auth.middleware.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { FileStorage } from '../files/uploads.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { ServerVersion } from '../version.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  /** The clock, replaceable in tests. */
  now: () => Date;
  /** Better Auth on the same database (auth/auth.ts); build it with createAuth(). */
  auth: Auth;
  /** The server's file storage (files/storage.ts): blobs, tus uploads. */
  files: FileStorage;
  /**
   * Prometheus metrics (metrics/metrics.ts), shared with the periodic jobs; when not given, the
   * app makes its own if METRICS_TOKEN is set, else counts nothing.
   */
  metrics?: Metrics;
  /** This build's version (version.ts); read from the sources when not given. */
  version?: ServerVersion;
}

/**
 * The request's signed-in user, where a service is called with c.var (which has it once
 * requireUser() ran): what the session's query read can then spare a query (plans/read-only.ts).
 */
export interface WithUser {
  user?: SessionUser;
}

export interface AppEnv {
  Variables: Omit<AppDeps, 'metrics' | 'version'> & {
    metrics: Metrics;
    /** The signed-in user; set by requireUser() (auth/auth.middleware.ts). */
    user: SessionUser;
    /** The id of the session the request came with; set by requireUser(). */
    sessionId: string;
  };
}
