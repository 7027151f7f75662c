// Typed clients for share links (schemas in shares.ts): the owner's /api/shares and the public
// /api/s/:id that the recipient's page (/s/<id>) calls without an account. The access and
// download tokens travel in headers, never in a URL, so no log or Referer carries them.
import { z } from 'zod';
import { apiErrorFrom, jsonInit, requestJson } from './client.ts';
import {
  SHARE_ACCESS_HEADER,
  SHARE_DOWNLOAD_HEADER,
  shareInfoSchema,
  shareOpenResponseSchema,
  shareResponseSchema,
  sharesResponseSchema,
  type CreateShareRequest,
  type UpdateShareRequest,
} from './shares.ts';

const one = (id: string) => `/api/shares/${encodeURIComponent(id)}`;
const pub = (id: string) => `/api/s/${encodeURIComponent(id)}`;

export const sharesApi = {
  /** Creates a link (201); a file link's bytes follow with uploadContent. */
  create: (input: CreateShareRequest) =>
    requestJson(shareResponseSchema, '/api/shares', jsonInit('POST', input)),
  /**
   * Sends a file link's ciphertext: exactly the `size` bytes declared at creation, in one PUT
   * whose Content-Length the server requires. A Blob body is streamed by the browser, which sets
   * its length. A ReadableStream is for runtimes that send the Content-Length given here (Node's
   * fetch); a browser drops that header (it is forbidden to scripts), and the server refuses a
   * body of unknown length (411).
   */
  async uploadContent(
    id: string,
    body: Blob | ReadableStream<Uint8Array>,
    size: number,
    signal?: AbortSignal,
  ): Promise<void> {
    if (body instanceof Blob && body.size !== size) {
      throw new RangeError(`The content is ${body.size} bytes, not ${size}`);
    }
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    if (!(body instanceof Blob)) headers['content-length'] = String(size);
    const init: RequestInit & { duplex?: 'half' } = {
      method: 'PUT',
      credentials: 'same-origin',
      headers,
      body,
      ...(body instanceof Blob ? {} : { duplex: 'half' as const }),
      ...(signal ? { signal } : {}),
    };
    const res = await fetch(`${one(id)}/content`, init);
    if (!res.ok) throw await apiErrorFrom(res);
  },
  /**
   * Sends one part of a file link's ciphertext: bytes `start`.. of the `total` declared at
   * creation, in order (shares.ts SHARE_PART_BYTES). The last part completes the link.
   */
  async uploadContentPart(
    id: string,
    part: Blob,
    start: number,
    total: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const res = await fetch(`${one(id)}/content`, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/octet-stream',
        'content-range': `bytes ${start}-${start + part.size - 1}/${total}`,
      },
      body: part,
      ...(signal ? { signal } : {}),
    });
    if (!res.ok) throw await apiErrorFrom(res);
  },
  /** The user's links, newest first. */
  list: () => requestJson(sharesResponseSchema, '/api/shares'),
  /** A new expiry, counted from now (409 once the link's data was deleted). */
  update: (id: string, input: UpdateShareRequest) =>
    requestJson(shareResponseSchema, one(id), jsonInit('PATCH', input)),
  /** Revokes the link at once: its row and its bytes go. */
  revoke: (id: string) => requestJson(z.null(), one(id), { method: 'DELETE' }),
};

export const publicShareApi = {
  /** What the link is (no open is counted); 404 shareUnavailableMessage for any link not usable. */
  info: (id: string, token: string) =>
    requestJson(shareInfoSchema, pub(id), {
      credentials: 'omit',
      headers: { [SHARE_ACCESS_HEADER]: token },
    }),
  /** Counts one open: a secret or text link's payload, or a file link's download token. */
  open: (id: string, token: string) =>
    requestJson(shareOpenResponseSchema, `${pub(id)}/open`, {
      method: 'POST',
      credentials: 'omit',
      headers: { [SHARE_ACCESS_HEADER]: token },
    }),
  /** Where a file link's ciphertext is served (GET or HEAD, with HTTP Range). */
  contentUrl: (id: string) => `${pub(id)}/content`,
  /**
   * Streams the ciphertext, or the inclusive byte range `[start, end]` of it (206). The body is
   * left unread for the caller to stream; an error answer becomes an ApiError.
   */
  async content(
    id: string,
    downloadToken: string,
    range?: { start: number; end?: number },
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = { [SHARE_DOWNLOAD_HEADER]: downloadToken };
    if (range) headers.range = `bytes=${range.start}-${range.end ?? ''}`;
    const res = await fetch(publicShareApi.contentUrl(id), {
      credentials: 'omit',
      headers,
      ...(signal ? { signal } : {}),
    });
    if (!res.ok) throw await apiErrorFrom(res);
    return res;
  },
};
