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
