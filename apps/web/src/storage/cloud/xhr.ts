// A request with a byte body sent by XMLHttpRequest, answered as a fetch Response: a cloud
// upload's pieces (Dropbox's upload session). Why not fetch: Chromium keeps the copy of each
// fetch request's body until the garbage collector runs, so a move from our server to Dropbox
// grew the browser by 213-250 MB per GiB (ArrayBuffers recycled: 260-300 MB), over the 200 MB
// of issue 27; sent this way it grew 179-184 MB (bench/RESULTS.md, "Move a vault").
// Failures are those of fetch: a TypeError for a network error, an AbortError DOMException for
// an aborted signal, any HTTP status as a Response.

/** Statuses whose Response must have no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The response headers of `xhr`, as the Headers of a fetch Response. */
export function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

export function sendBytes(
  url: string,
  init: { method: string; headers: Headers; body: Uint8Array; signal?: AbortSignal | null },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', abort);
    signal?.addEventListener('abort', abort, { once: true });
    xhr.open(init.method, url);
    xhr.responseType = 'arraybuffer';
    init.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.onload = () => {
      done();
      const body = NULL_BODY.has(xhr.status) ? null : (xhr.response as ArrayBuffer | null);
      try {
        resolve(
          new Response(body, {
            status: xhr.status,
            headers: headersOf(xhr.getAllResponseHeaders()),
          }),
        );
      } catch (err) {
        reject(err instanceof Error ? new TypeError(err.message) : new TypeError(String(err)));
      }
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Failed to fetch'));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    xhr.send(init.body as Uint8Array<ArrayBuffer>);
  });
}
