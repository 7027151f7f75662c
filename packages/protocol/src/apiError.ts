// The error every API call throws for an error answer: the server's status, stable code and safe
// message (docs/conventions.md, "Errors and messages"). No zod here ([Note: schema-free modules]
// in index.ts): the app's start-up code tells a 4xx from the rest with it before any schema is
// built. client.ts builds it from an answer and re-exports it.
import type { ErrorCode } from './errors.ts';

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
