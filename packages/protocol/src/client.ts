// A small typed fetch client for the API: every answer is parsed with its zod schema, every
// error answer becomes an ApiError carrying the server's code and safe message.
import type { z } from 'zod';
import { errorBodySchema, type ErrorCode } from './errors.ts';
import { healthResponseSchema } from './health.ts';
import { plansResponseSchema } from './plans.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const parsed = errorBodySchema.safeParse(body);
    if (parsed.success)
      throw new ApiError(res.status, parsed.data.error.code, parsed.data.error.message);
    throw new ApiError(res.status, res.status === 404 ? 'not_found' : 'internal', res.statusText);
  }
  return schema.parse(body);
}

export const api = {
  health: (f?: typeof fetch) => requestJson(healthResponseSchema, '/api/health', {}, f),
  plans: (f?: typeof fetch) => requestJson(plansResponseSchema, '/api/plans', {}, f),
};
