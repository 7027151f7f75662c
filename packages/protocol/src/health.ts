import { z } from 'zod';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgres']),
  /** The server's version: the root package.json's (issue 33), or "unknown". */
  version: z.string(),
  /** The git commit the server was built from (short), or "unknown". */
  commit: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
