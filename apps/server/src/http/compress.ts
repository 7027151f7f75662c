// Response compression (RFC 9110 §8.4 Content-Encoding, §12.5.3 Accept-Encoding, §12.5.5 Vary).
// Two users: compressJson() gzips JSON API responses of 1 KiB or more on the fly, and
// web/static.ts serves the `.br` and `.gz` files the build wrote beside the web app's text files.
// Bodies that must reach the client byte for byte are never touched: a request with a Range, a
// response with a Content-Range or an encoding of its own, and the routes the caller excludes (the
// file downloads and the tus uploads, whose bodies are file bytes and must keep streaming).
import type { MiddlewareHandler } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import { nodeResponse } from './response-header.ts';

/** Below this many bytes gzip saves less than a packet and costs a CPU round trip. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const JSON_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i;

/** Whether an Accept-Encoding header allows `encoding`: q > 0, named or through `*`. */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  if (!header) return false;
  const accepts = parseAccept(header);
  const named = accepts.find((a) => a.type.toLowerCase() === encoding);
  const q = named?.q ?? accepts.find((a) => a.type === '*')?.q ?? 0;
  return q > 0;
}

/** Adds Accept-Encoding to Vary: caches must keep the encoded and the plain body apart. */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (vary && VARY_ACCEPT_ENCODING.test(vary)) return;
  headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

export interface CompressJsonOptions {
  /** Request paths whose responses are left alone (downloads, uploads). */
  except?: (path: string) => boolean;
  threshold?: number;
}

/**
 * Gzips JSON responses of `threshold` bytes or more for clients that accept gzip. A body of unknown
 * length is read until it passes the threshold (or ends, and is then sent as it is), and the rest
 * streams through the compressor: nothing is held beyond the first `threshold` bytes.
 */
export function compressJson(opts: CompressJsonOptions = {}): MiddlewareHandler {
  const threshold = opts.threshold ?? COMPRESS_THRESHOLD_BYTES;
  return async (c, next) => {
    // What the request alone decides: these answers are left as they are.
    if (
      c.req.method === 'HEAD' ||
      c.req.header('Range') !== undefined ||
      opts.except?.(c.req.path)
    ) {
      return next();
    }
    await next();
    const { res } = c;
    if ([204, 206, 304].includes(res.status)) return;
    const accepted = acceptsEncoding(c.req.header('Accept-Encoding'), 'gzip');
    // [Note: Vary without the answer's headers] A client that does not accept gzip gets the body
    // as it is, whatever it is, so nothing of the answer needs reading: under @hono/node-server
    // Vary goes on Node's response, and the answer's headers stay untouched ([Note: headers on
    // Node's response] in response-header.ts). That Vary may name Accept-Encoding on an answer
    // that is not JSON, or lose it to an answer's own Vary: either is safe, as a cache may give an
    // unencoded body to any client; a gzipped body always goes through the checks below.
    if (!accepted) {
      const outgoing = nodeResponse(c);
      if (outgoing) {
        outgoing.setHeader('Vary', 'Accept-Encoding');
        return;
      }
    }
    if (
      res.headers.has('Content-Range') ||
      res.headers.has('Content-Encoding') ||
      !JSON_TYPE.test(res.headers.get('Content-Type') ?? '') ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    varyOnEncoding(res.headers);
    // The body is read only now, when it is compressed: reading it turns the adapter's light
    // response into a streamed one ([Note: lightweight responses] in response-header.ts).
    if (!accepted || !res.body) return;
    const declared = res.headers.get('Content-Length');
    if (declared !== null && Number(declared) < threshold) return;

    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const head: Uint8Array[] = [];
    let size = 0;
    if (declared === null) {
      while (size < threshold) {
        const chunk = await reader.read();
        if (chunk.done) {
          // All of it, and small: sent as it is, now with its length.
          c.res = new Response(concat(head, size), res);
          c.res.headers.set('Content-Length', String(size));
          return;
        }
        head.push(chunk.value);
        size += chunk.value.byteLength;
      }
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of head) controller.enqueue(chunk);
      },
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    // Hono copies the old response's headers onto the new one: the length goes after.
    // Typed as the DOM's CompressionStream under some lib settings (the e2e tsconfig's), whose
    // writable side takes ArrayBuffer-backed chunks only: these are.
    const gzip = new CompressionStream('gzip') as unknown as TransformStream<
      Uint8Array,
      Uint8Array
    >;
    c.res = new Response(body.pipeThrough(gzip), res);
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', 'gzip');
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
