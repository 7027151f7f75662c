// Typed client for GET /api/landing (landing.ts), public.
import { requestJson } from './client.ts';
import { landingContentSchema } from './landing.ts';

export const landingApi = {
  get: () => requestJson(landingContentSchema, '/api/landing'),
};
