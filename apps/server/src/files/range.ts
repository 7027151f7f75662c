// HTTP Range for downloads (RFC 9110 §14): one byte range, `bytes=a-b`, `bytes=a-` or `bytes=-n`.
// `serveBlob` answers a GET or HEAD of a stored blob with it (a vault's file, a share link's copy).
// A header we do not serve (another unit, several ranges, bad syntax) is ignored and the whole
// blob is sent, as the RFC allows; a well-formed range that misses the blob is 416.

import type { Context } from 'hono';
import type { BlobKey, BlobStore } from '../blobs/blob-store.ts';
import { errorBody } from '../http/errors.ts';

export type RangeResult =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = SINGLE.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/**
 * A stored blob of `size` bytes as the answer to a GET or HEAD: the whole (200) or the one range
 * asked for (206), 416 for a range that misses it; HEAD without opening the blob. `headers` adds
 * to the answer's (e.g. Cache-Control).
 */
export async function serveBlob(
  c: Context,
  blobs: Pick<BlobStore, 'get'>,
  key: BlobKey,
  size: number,
  extra: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/octet-stream',
    'Accept-Ranges': 'bytes',
    ...extra,
  };
  const range = parseRange(c.req.header('range'), size);
  if (range.kind === 'unsatisfiable') {
    headers['Content-Range'] = `bytes */${size}`;
    return c.json(
      errorBody('bad_request', 'The requested range is not satisfiable.'),
      416,
      headers,
    );
  }
  const partial = range.kind === 'partial' ? range : null;
  const start = partial?.start ?? 0;
  const end = partial?.end ?? size - 1;
  headers['Content-Length'] = String(end - start + 1);
  if (partial) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  const status = partial ? 206 : 200;
  if (c.req.method === 'HEAD') return c.body(null, status, headers);
  return c.body(await blobs.get(key, partial ?? undefined), status, headers);
}
