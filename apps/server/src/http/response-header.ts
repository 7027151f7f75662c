// Sets a header on the response a middleware finds after next() without rebuilding it (issue 31).
// [Note: lightweight responses] @hono/node-server answers c.json()/c.text() responses through a
// light Response that keeps the body as a string and writes it to the socket at once. Hono's
// c.header() on a finished response instead builds a new Response from the old one's body, a
// ReadableStream: the real (undici) Response is made and the adapter then reads the body back
// from its stream before writing. Headers set on c.res.headers keep the light path; a response
// whose headers are immutable (a fetch result) falls back to c.header().

/** The part of Hono's context this needs (any route's context has it). */
interface HeaderTarget {
  res: Response;
  header: (name: string, value: string) => void;
}

export function setResponseHeader(c: HeaderTarget, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}

/** A header as the middlewares keep them: built once, set on every answer. */
export type HeaderPair = readonly [name: string, value: string];

/** What this needs of Node's own response (http.ServerResponse, or HTTP/2's). */
interface NodeResponse {
  headersSent: boolean;
  setHeader(name: string, value: string): unknown;
}

/**
 * [Note: headers on Node's response]
 * Under @hono/node-server the context's env holds Node's own response (`c.env.outgoing`), and the
 * adapter's writeHead() adds the answer's headers to those already set on it. Headers that every
 * answer carries (security headers, the request id, Vary) are set there: a c.json() answer then
 * keeps its headers as the plain object the adapter writes as it is. Any middleware that touches
 * `c.res.headers` turns them into undici Headers (every set validated), which the adapter copies
 * back into an object before writing: about 15 µs a request over the loopback (bench/RESULTS.md,
 * "Speed II, sixth round"). One difference: a header the answer sets itself wins over the one set
 * here (Node gives writeHead's the precedence), where setting c.res.headers after next() replaced
 * it; no route sets these headers. In-process (app.request(), the tests) there is no Node response,
 * and they go on `c.res.headers` as before ([Note: lightweight responses]).
 */
export function nodeResponse(c: { env: unknown }): NodeResponse | undefined {
  const outgoing = (c.env as { outgoing?: Partial<NodeResponse> } | undefined)?.outgoing;
  return typeof outgoing?.setHeader === 'function' && outgoing.headersSent === false
    ? (outgoing as NodeResponse)
    : undefined;
}

/** Sets `headers` on Node's response when there is one ([Note: headers on Node's response]). */
export function setOnNodeResponse(c: { env: unknown }, headers: readonly HeaderPair[]): boolean {
  const outgoing = nodeResponse(c);
  if (!outgoing) return false;
  for (const [name, value] of headers) outgoing.setHeader(name, value);
  return true;
}
