// pino logger. Never log bodies, cookies, tokens or keys: request logs carry method, path, status
// and duration only, and the redact list is a second line of defence. Every line written while a
// request is handled carries its id ([Note: request id] in http/request-id.ts). Standard output
// holds JSON lines only (issue 33): nothing else in the server prints to it.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { currentRequestId } from './http/request-id.ts';

export type { Logger };

export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.token'],
        censor: '[redacted]',
      },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    destination,
  );
}
