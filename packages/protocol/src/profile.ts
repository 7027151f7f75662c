// The signed-in user's profile (docs/product.md §3 profiles) and the account endpoints of our own API:
// GET/PATCH/DELETE /api/me and GET /api/auth-config. Sign-up, sign-in, verification, reset and
// two-factor are Better Auth's endpoints under /api/auth (docs/auth.md).
import { z } from 'zod';
import { plansModeSchema, signupModeSchema } from './instance.ts';
import { planIdSchema } from './plans.ts';

export const MIN_SIGNUP_PASSWORD_LENGTH = 6;
export const MAX_FULL_NAME_LENGTH = 100;

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  role: roleSchema,
  current_plan_id: planIdSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

/** GET /api/me: the profile with the name of its current plan (for the top bar). */
export const meResponseSchema = profileSchema.extend({
  plan: z.object({ id: planIdSchema, name: z.string() }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** PATCH /api/me. */
export const updateMeRequestSchema = z.object({
  full_name: z
    .string()
    .trim()
    .min(1, 'Full name is required')
    .max(MAX_FULL_NAME_LENGTH, `Full name must be at most ${MAX_FULL_NAME_LENGTH} characters`),
});
export type UpdateMeRequest = z.infer<typeof updateMeRequestSchema>;

/**
 * DELETE /api/me. The password is required for accounts that have one; an account that only
 * signs in with Google confirms by a session that started less than 10 minutes ago instead.
 */
export const deleteMeRequestSchema = z.object({
  password: z.string().max(128).optional(),
});
export type DeleteMeRequest = z.infer<typeof deleteMeRequestSchema>;

/**
 * GET /api/auth-config: which sign-in methods the server offers, who may sign up and whether the
 * SaaS plans apply (instance.ts; the defaults are what a server from before issue 33 meant).
 */
export const authConfigResponseSchema = z.object({
  google: z.boolean(),
  signup: signupModeSchema.default('open'),
  plans: plansModeSchema.default('saas'),
});
export type AuthConfigResponse = z.infer<typeof authConfigResponseSchema>;
