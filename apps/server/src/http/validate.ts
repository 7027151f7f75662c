// Parses a JSON request body with a zod schema: malformed JSON or a failed schema is a 400 with
// a message naming the first problem, never a 500.
import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest } from './errors.ts';

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw badRequest('The request body must be JSON.');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw badRequest(`${where}${issue?.message ?? 'invalid input'}`);
  }
  return parsed.data;
}
