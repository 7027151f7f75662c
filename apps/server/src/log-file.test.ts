// The log file on a full disk (server.ts, logFileDestination): a line that cannot be written is
// kept for later and never thrown into the request that logged it. /dev/full answers every write
// with ENOSPC, as a full disk does.
import fs from 'node:fs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logFileDestination } from './server.ts';

describe.runIf(fs.existsSync('/dev/full'))('the log file on a full disk', () => {
  it('drops nothing into the caller: logging goes on while writes fail', () => {
    const logger = pino(logFileDestination('/dev/full'));
    expect(() => {
      for (let i = 0; i < 100; i++) logger.info({ i }, 'request');
    }).not.toThrow();
  });

  it('is what a plain synchronous destination does not do', () => {
    const logger = pino(pino.destination({ dest: '/dev/full', sync: true }));
    expect(() => logger.info('request')).toThrow(/ENOSPC|no space/i);
  });
});
