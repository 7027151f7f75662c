// A small typed fetch client for the API: every answer is parsed with its zod schema, every
// error answer becomes an ApiError carrying the server's code and safe message.
import { z } from 'zod';
import { ApiError } from './apiError.ts';
import { errorBodySchema } from './errors.ts';
import { healthResponseSchema } from './health.ts';
import { plansResponseSchema } from './plans.ts';
import {
  authConfigResponseSchema,
  meResponseSchema,
  type DeleteMeRequest,
  type UpdateMeRequest,
} from './profile.ts';

// Defined without zod in apiError.ts ([Note: schema-free modules] in index.ts), the same class.
export { ApiError };

export async function requestJson<S extends z.ZodType>(
  schema: S,
  path: string,
  init: RequestInit = {},
  fetchImpl: typeof fetch = fetch,
): Promise<z.infer<S>> {
  const res = await fetchImpl(path, {
    credentials: 'same-origin',
    ...init,
    headers: { accept: 'application/json', ...init.headers },
  });
  if (!res.ok) throw await apiErrorFrom(res);
  const body: unknown = await res.json().catch(() => null);
  return schema.parse(body);
}

/** The ApiError an error answer stands for, with the server's code and safe message. */
export async function apiErrorFrom(res: Response): Promise<ApiError> {
  const parsed = errorBodySchema.safeParse(await res.json().catch(() => null));
  if (parsed.success)
    return new ApiError(res.status, parsed.data.error.code, parsed.data.error.message);
  return new ApiError(res.status, res.status === 404 ? 'not_found' : 'internal', res.statusText);
}

/**
 * requestJson for a write whose 409 answer carries the stored version (`conflict`'s shape):
 * `toError` turns that answer into the caller's error; any other failure is an ApiError.
 */
export async function requestWithConflict<S extends z.ZodType, C extends z.ZodType>(
  schema: S,
  path: string,
  init: RequestInit,
  conflict: C,
  toError: (answer: z.infer<C>) => Error,
): Promise<z.infer<S>> {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  if (res.status === 409) {
    const body = conflict.safeParse(
      await res
        .clone()
        .json()
        .catch(() => null),
    );
    if (body.success) throw toError(body.data);
  }
  if (!res.ok) throw await apiErrorFrom(res);
  return schema.parse(await res.json());
}

/** A request with a JSON body, for requestJson. */
export const jsonInit = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const deletedSchema = z.object({ deleted: z.literal(true) });

export const api = {
  health: (f?: typeof fetch) => requestJson(healthResponseSchema, '/api/health', {}, f),
  plans: (f?: typeof fetch) => requestJson(plansResponseSchema, '/api/plans', {}, f),
  authConfig: (f?: typeof fetch) =>
    requestJson(authConfigResponseSchema, '/api/auth-config', {}, f),
  me: (f?: typeof fetch) => requestJson(meResponseSchema, '/api/me', {}, f),
  updateMe: (input: UpdateMeRequest, f?: typeof fetch) =>
    requestJson(meResponseSchema, '/api/me', jsonInit('PATCH', input), f),
  deleteMe: (input: DeleteMeRequest, f?: typeof fetch) =>
    requestJson(deletedSchema, '/api/me', jsonInit('DELETE', input), f),
};
