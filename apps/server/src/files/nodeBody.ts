// The body of a PATCH for @tus/server, read straight from Node's request stream when the server
// runs on @hono/node-server. Its own adapter (Readable.toWeb) copies every chunk "to detach it
// from the pool" and @tus/server turns the stream back into a Node stream; the copies and their
// garbage cost the server about as much CPU as everything else in an upload (bench/RESULTS.md,
// "Upload and download"). A socket's chunks are fresh buffers, so handing them on uncopied is safe.
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';

/** `c.req.raw`, or the same request with its body taken from the Node stream when there is one. */
export function requestWithNodeBody(c: Context): Request {
  const raw = c.req.raw;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded || incoming.readableDidRead) return raw;
  // `duplex` is required with a stream body (Node's fetch); not every lib.dom knows it yet.
  const init: RequestInit & { duplex: 'half' } = {
    method: raw.method,
    headers: raw.headers,
    signal: raw.signal,
    body: bodyOf(incoming),
    duplex: 'half',
  };
  return new Request(raw.url, init);
}

/** A pull-driven web stream over `incoming`: paused whenever the reader has one chunk queued. */
export function bodyOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.pause();
        incoming.on('data', (chunk: Buffer) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        incoming.once('end', () => {
          settled = true;
          controller.close();
        });
        incoming.once('error', (err) => {
          if (settled) return;
          settled = true;
          controller.error(err);
        });
        // A dropped connection closes the request without 'end'.
        incoming.once('close', () => {
          if (settled) return;
          settled = true;
          controller.error(new Error('The request was aborted'));
        });
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        settled = true;
        incoming.resume(); // drain what is left, so the response can still be written
      },
    },
    { highWaterMark: 1 },
  );
}

/** How long, and how many bytes, an error answer waits for the rest of a body it did not read. */
export const DRAIN_MS = 15_000;
export const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Middleware for routes that take a large body (a tus PATCH, a share link's content): an error
 * answered before the body was read to its end (a 507 for a full disk, a quota's 413) waits for
 * the rest of the body, dropping it, before it is sent (at most DRAIN_MS and DRAIN_BYTES).
 * @hono/node-server destroys the socket 500 ms after such an answer if the body has not ended:
 * a client still sending (a 4 MiB PATCH over a slow link, or on a busy machine) then meets a reset
 * and never reads the answer, so "storage full" became a network error and a retry.
 */
export const drainBodyOnError: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status < 400) return;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded || incoming.destroyed) return;
  await new Promise<void>((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', done);
      incoming.off('close', done);
      incoming.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MS);
    incoming.on('data', onData);
    incoming.on('end', done);
    incoming.on('close', done);
    incoming.on('error', done);
    incoming.resume();
  });
};
