// The runner of the server's periodic jobs (the file sweep, the trash purge, the share sweep, the
// subscription changes): a pass now and every `intervalMs`, never two passes at once in this process, and with
// several instances on one PostgreSQL database never two at once anywhere: a pass starts only if
// it takes the job's shared lock, and an instance that finds it held skips that round [Note:
// shared locks in db/locks.ts]. A failed pass is logged by name and retried next round. Passes
// that ran here, and those that failed, are counted in the metrics (metrics/metrics.ts).
import { runExclusive, type SharedLocks } from '../db/locks.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';

export interface PeriodicJob<T extends object> {
  /** Names the job in the logs and its lock. */
  name: string;
  intervalMs: number;
  run: () => Promise<T>;
  /** Whether a pass's result is worth an info line (a pass that did nothing is not). */
  worthLogging: (result: T) => boolean;
}

export interface RunningJob {
  /** One pass now (unless one is running); resolves when it is over. */
  runNow(): Promise<void>;
  stop(): void;
}

export function startPeriodicJob<T extends object>(
  job: PeriodicJob<T>,
  deps: { logger: Logger; locks: SharedLocks; metrics?: Metrics; now?: () => Date },
): RunningJob {
  const now = deps.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  const pass = async () => {
    try {
      const outcome = await runExclusive(deps.locks, job.name, job.run);
      if (!outcome.ran) {
        deps.logger.debug({ job: job.name }, 'job skipped: running on another instance');
        return;
      }
      deps.metrics?.jobRan(job.name, 'ok', now());
      if (job.worthLogging(outcome.result)) {
        deps.logger.info({ job: job.name, result: outcome.result }, job.name);
      } else {
        deps.logger.debug({ job: job.name }, 'job ran');
      }
    } catch (err) {
      deps.metrics?.jobRan(job.name, 'failed', now());
      deps.logger.warn(
        { job: job.name, err: err instanceof Error ? err.message : 'unknown' },
        `${job.name} failed`,
      );
    }
  };
  const runNow = () => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void runNow(), job.intervalMs);
  timer.unref();
  void runNow();
  return { runNow, stop: () => clearInterval(timer) };
}
