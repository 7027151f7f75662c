// The route table's shape and the helpers its entries are written with (api-routes.ts): a route,
// its request body and its answers, each body a zod schema of the protocol or a media type.
import { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/** A body: JSON checked by a zod schema, or bytes / text / a form of the named media type. */
export type Body = { json: z.ZodType } | { media: string; description: string; binary?: boolean };

export interface ApiResponse {
  description: string;
  body?: Body;
  /** Response headers worth naming (tus, Range). */
  headers?: Record<string, string>;
}

export interface ApiRoute {
  method: Method;
  /** Hono's pattern as registered: `/api/vaults/:id`; `*` for a subtree (Better Auth's). */
  path: string;
  tag: string;
  summary: string;
  /** session: the sign-in cookie; metrics: METRICS_TOKEN as a Bearer token; public: nothing. */
  auth: 'session' | 'public' | 'metrics';
  /** Request headers the route reads (beyond the cookie). */
  headers?: Record<string, string>;
  /** The query string, as the zod object the route parses it with. */
  query?: z.ZodObject;
  body?: Body;
  responses: Record<number, ApiResponse>;
}

export const json = (schema: z.ZodType): Body => ({ json: schema });
export const ok = (description: string, schema?: z.ZodType): ApiResponse =>
  schema ? { description, body: json(schema) } : { description };
export const noContent: ApiResponse = { description: 'Done; no body.' };
export const conflictWith = (schema: z.ZodType, what: string): ApiResponse => ({
  description: `A newer ${what} was stored first: 409 conflict with the stored one as \`current\`.`,
  body: json(schema),
});
export const ciphertext = (what: string): Body => ({
  media: 'application/octet-stream',
  description: `${what}: ciphertext only (docs/vault-format.md).`,
  binary: true,
});
export const rangeHeaders = {
  'Content-Range': 'With a Range request (RFC 9110, section 14): the part sent.',
  'Accept-Ranges': 'bytes',
};
export const tusHeaders = {
  'Tus-Resumable': 'The tus protocol version: 1.0.0.',
  'Upload-Offset': 'The bytes received so far.',
};
export const deleted = z.object({ deleted: z.literal(true) });
