// What every request handler can reach through c.var.
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  /** The clock, replaceable in tests. */
  now: () => Date;
}

export interface AppEnv {
  Variables: AppDeps;
}
