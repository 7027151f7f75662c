// Response compression (RFC 9110 §8.4 Content-Encoding, §12.5.3 Accept-Encoding, §12.5.5 Vary).
// Two users: compressJson() gzips JSON API responses of 1 KiB or more on the fly, and
// web/static.ts serves the `.br` and `.gz` files the build wrote beside the web app's text files.
// Bodies that must reach the client byte for byte are never touched: a request with a Range, a
// response with a Content-Range or an encoding of its own, and the routes the caller excludes (the
// file downloads and the tus uploads, whose bodies are file bytes and must keep streaming).
import zlib from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
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
    if (accepted && compressWhole(c, threshold)) return;
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

/**
 * [Note: the light answer's body] @hono/node-server's light Response (a c.json() answer, [Note:
 * lightweight responses] in response-header.ts) keeps its status, body text and headers in an array
 * under a symbol of its own, described "cache", until something asks for its body: reading
 * `res.body` would build an undici Response and a stream only to learn the size, then a second
 * Response for a small body, and gzip the large ones chunk by chunk through CompressionStream
 * at level 6: for a browser's requests the bench's mix cost 2.0-2.4 ms of server CPU a request,
 * against 0.56-0.67 ms without Accept-Encoding (bench/RESULTS.md, "the browser's Accept-Encoding").
 * The body is whole here: its size is known, a small one is left untouched (the adapter writes its
 * length), a large one is gzipped in one synchronous call ([Note: gzip level 1]; a 100 KB list
 * holds the thread about 1.2 ms, work the stream did on the same thread in pieces) and sent with
 * its Content-Length. An answer of any other shape (no such array, a stream body, headers as a
 * list) goes the general way below.
 */
let cacheSymbol: symbol | undefined;

type Light = [status: number, body: unknown, headers: unknown];

function lightParts(res: Response): Light | undefined {
  cacheSymbol ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  if (cacheSymbol === undefined) return undefined;
  const parts = (res as unknown as Record<symbol, unknown>)[cacheSymbol];
  return Array.isArray(parts) && parts.length === 3 ? (parts as Light) : undefined;
}

/** A plain header object's value, whatever the case of its name. */
function plainHeader(headers: Record<string, unknown>, name: string): string | null {
  for (const key in headers) {
    if (key.length === name.length && key.toLowerCase() === name) {
      const value = headers[key];
      return typeof value === 'string' ? value : null;
    }
  }
  return null;
}

/**
 * Compresses (or leaves as it is) a light answer whose body is whole ([Note: the light answer's
 * body]), with the checks and headers of the general way; false when the answer is not one.
 */
function compressWhole(c: Context, threshold: number): boolean {
  const parts = lightParts(c.res);
  if (!parts) return false;
  const [status, body, headers] = parts;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return false;
  let get: (name: string) => string | null;
  if (headers instanceof Headers) get = (name) => headers.get(name);
  else if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
    get = (name) => plainHeader(headers as Record<string, unknown>, name);
  } else return false;
  if (
    get('content-range') !== null ||
    get('content-encoding') !== null ||
    !JSON_TYPE.test(get('content-type') ?? '') ||
    NO_TRANSFORM.test(get('cache-control') ?? '')
  ) {
    return true;
  }
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const small = size < threshold;
  const outgoing = nodeResponse(c);
  if (headers instanceof Headers) {
    const out = new Headers(headers);
    varyOnEncoding(out);
    if (small) out.set('Content-Length', String(size));
    else gzipHeaders(out);
    setRes(c, new Response(asBody(small ? body : gzip(body)), { status, headers: out }));
    return true;
  }
  // A plain object, as c.json() makes it: kept plain ([Note: headers on Node's response]).
  const plain = headers as Record<string, string>;
  const vary = get('vary');
  const varied = vary !== null && /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary);
  if (small && (varied || (vary === null && outgoing))) {
    // Untouched: the adapter writes its length.
    if (!varied) outgoing?.setHeader('Vary', 'Accept-Encoding');
    return true;
  }
  const out: Record<string, string> = {};
  for (const key in plain) {
    const lower = key.toLowerCase();
    if (lower !== 'content-length' && lower !== 'vary' && lower !== 'etag') out[key] = plain[key]!;
  }
  if (vary === null && outgoing) outgoing.setHeader('Vary', 'Accept-Encoding');
  else out.Vary = varied ? vary : vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
  const etag = get('etag');
  if (small) {
    if (etag !== null) out.ETag = etag;
    out['Content-Length'] = String(size);
    setRes(c, new Response(asBody(body), { status, headers: out }));
    return true;
  }
  if (etag !== null) out.ETag = etag.startsWith('W/') ? etag : `W/${etag}`;
  out['Content-Encoding'] = 'gzip';
  setRes(c, new Response(asBody(gzip(body)), { status, headers: out }));
  return true;
}

/**
 * [Note: gzip level 1] A whole body is gzipped at level 1, not zlib's default 6 (which
 * CompressionStream uses): the JSON the API sends is mostly base64 ciphertext, which level 6 hardly
 * shrinks more (a 100 KB secrets list: 59.0 against 59.2 KB) for about 20% more CPU (1.44 against
 * 1.21 ms on the bench machine). Huffman coding alone (Z_HUFFMAN_ONLY) halves that CPU again but
 * sends 78 KB: left out (bench/RESULTS.md, "the browser's Accept-Encoding").
 */
const GZIP_LEVEL = 1;

/**
 * A body as a Response takes it: the DOM's typings (the e2e tier's) want a Uint8Array over an
 * ArrayBuffer, and ours never lie over a SharedArrayBuffer (text, or zlib's output).
 */
function asBody(body: string | Uint8Array): string | Uint8Array<ArrayBuffer> {
  return body as string | Uint8Array<ArrayBuffer>;
}

function gzip(body: string | Uint8Array): Buffer {
  return zlib.gzipSync(body, { level: GZIP_LEVEL });
}

/** A gzipped answer's headers, from those of the answer as it was. */
function gzipHeaders(out: Headers): void {
  out.delete('Content-Length');
  out.set('Content-Encoding', 'gzip');
  const etag = out.get('ETag');
  if (etag && !etag.startsWith('W/')) out.set('ETag', `W/${etag}`);
}

/**
 * Replaces the answer as it is: Hono's setter would otherwise build it again from its body's stream
 * to copy the old answer's headers onto it ([Note: the light answer's body]); these are already on.
 */
function setRes(c: Context, res: Response): void {
  c.res = undefined;
  c.res = res;
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
