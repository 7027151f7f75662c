// Replies and errors of the OneDrive emulator (test tooling; see onedrive.ts). Graph's error body
// follows Microsoft Graph's "Error responses" reference and OneDrive's docs/rest-api/concepts/
// errors.md (github.com/OneDrive/onedrive-api-docs): `{error: {code, message, innerError}}`, the
// code one of the documented top-level codes, innerError carrying a more detailed code where the
// docs list one, plus the date and request-id Graph adds.
import { randomUUID } from 'node:crypto';
import type http from 'node:http';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Thrown to answer early; the dispatcher turns it into the response. */
export class Answer extends Error {
  constructor(readonly reply: Reply) {
    super(`answer ${reply.status}`);
  }
}

export const MiB = 1024 * 1024;

export const jsonReply = (
  status: number,
  value: Json,
  headers: Record<string, string> = {},
): Reply => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(value)),
});

export const emptyReply = (status: number, headers: Record<string, string> = {}): Reply => ({
  status,
  headers,
  body: Buffer.alloc(0),
});

export const htmlReply = (status: number, title: string, html: string): Reply => ({
  status,
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
  body: Buffer.from(`<!doctype html><title>${title}</title><h1>${title}</h1>${html}`),
});

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const timestamp = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A Graph error reply: `{error: {code, message, innerError: {code?, date, request-id}}}`. */
export function graphError(
  status: number,
  code: string,
  message: string,
  inner?: string,
  headers: Record<string, string> = {},
): Reply {
  const requestId = randomUUID();
  return jsonReply(
    status,
    {
      error: {
        code,
        message,
        innerError: {
          ...(inner ? { code: inner } : {}),
          date: timestamp(),
          'request-id': requestId,
          'client-request-id': requestId,
        },
      },
    },
    headers,
  );
}

/** Throws a Graph error (see graphError). */
export function fail(status: number, code: string, message: string, inner?: string): never {
  throw new Answer(graphError(status, code, message, inner));
}

export const notFound = (what = 'The resource could not be found.') =>
  fail(404, 'itemNotFound', what);

export const invalidRequest = (message: string, inner?: string) =>
  fail(400, 'invalidRequest', message, inner);

/** Reads a whole body, keeping at most `keep` bytes but counting all of them. */
export function readBody(
  req: http.IncomingMessage,
  keep: number,
): Promise<{ body: Buffer; total: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (kept < keep) {
        const part = chunk.subarray(0, keep - kept);
        chunks.push(part);
        kept += part.length;
      }
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), total }));
    req.on('error', reject);
  });
}

/** A JSON object body, or 400 invalidRequest. An empty body is `{}`. */
export function jsonBody(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return invalidRequest('Invalid request body: not JSON.', 'invalidParameterFormat');
  }
  if (!isObject(parsed)) return invalidRequest('Invalid request body: a JSON object wanted.');
  return parsed;
}

// What a browser may send to and read from Graph and the content hosts (CORS).
export const ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Content-Range',
  'Content-Length',
  'Range',
  'If-Match',
  'If-None-Match',
  'Prefer',
  'client-request-id',
  'return-client-request-id',
  'SdkVersion',
].join(', ');
export const EXPOSE_HEADERS = [
  'ETag',
  'Location',
  'Content-Range',
  'Content-Length',
  'Retry-After',
  'request-id',
  'client-request-id',
  'WWW-Authenticate',
].join(', ');
