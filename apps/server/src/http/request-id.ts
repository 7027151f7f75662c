// Request ids (issue 33): every request gets one, answered in the X-Request-Id header, written on
// every log line the request causes (the logger's mixin, logger.ts) and into every error answer
// as `error.requestId` (errorBody, errors.ts). [Note: request id]: the id lives in an
// AsyncLocalStorage for the request's whole asynchronous life, so that code far from the Hono
// context (the tus hooks, Better Auth's logger, a service's warning) carries it without being
// handed it. An id a proxy in front sends is kept when it is a short safe token, so that the
// proxy's logs and ours can be joined; anything else is replaced by a fresh one, never echoed.
// (Hono's own requestId middleware sets the header before the handler runs, which a Response the
// handler builds itself, Better Auth's or tus's, does not keep; and it accepts `=`.)
// The AsyncLocalStorage and the UUID stay (issue 31): a run() and a getStore() per request cost
// about 1-2 µs together over the loopback, within the noise of a 0.7 ms request, and the id is
// what the log lines of code far from the context (tus, Better Auth) carry; randomUUID() draws
// from a cached pool of random bytes (well under a microsecond).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { nodeResponse, setResponseHeader } from './response-header.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** What an incoming X-Request-Id must look like to be kept: up to 64 of [A-Za-z0-9._-]. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

const storage = new AsyncLocalStorage<string>();

/** The id of the request whose work is running now; undefined outside a request (jobs, start-up). */
export const currentRequestId = (): string | undefined => storage.getStore();

/**
 * Gives each request its id (the incoming one if safe, else `generate()`), runs the rest of the
 * app inside it and adds the response header last, whoever built the response.
 */
export function requestIds(generate: () => string = randomUUID): MiddlewareHandler {
  return async (c, next) => {
    const incoming = c.req.header(REQUEST_ID_HEADER);
    const id = incoming !== undefined && SAFE_REQUEST_ID.test(incoming) ? incoming : generate();
    // [Note: headers on Node's response] in response-header.ts; in-process, on c.res after.
    const outgoing = nodeResponse(c);
    if (outgoing) {
      outgoing.setHeader(REQUEST_ID_HEADER, id);
      return storage.run(id, next);
    }
    await storage.run(id, next);
    setResponseHeader(c, REQUEST_ID_HEADER, id);
  };
}
