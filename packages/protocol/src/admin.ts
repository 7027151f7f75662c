// The admin console's API (issue 33, docs/product.md "Admin API"): users, their plan, role,
// disabled flag, second factor and sessions, storage used, the instance's settings and the audit
// log. Admin role only. Nothing here carries vault content, a token or a secret: an admin manages
// accounts, never what is in them.
import { z } from 'zod';
import { planIdSchema } from './plans.ts';
import { plansModeSchema, signupModeSchema } from './instance.ts';

/** The largest page the admin lists answer. */
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_DEFAULT_PAGE_SIZE = 25;

const page = z.coerce.number().int().min(1).max(1_000_000).default(1);
const perPage = z.coerce
  .number()
  .int()
  .min(1)
  .max(ADMIN_MAX_PAGE_SIZE)
  .default(ADMIN_DEFAULT_PAGE_SIZE);

/** GET /api/admin/users?q=&page=&per_page= (q: part of an e-mail or name, case-blind). */
export const adminUsersQuerySchema = z.strictObject({
  q: z.string().trim().max(200).optional(),
  page,
  per_page: perPage,
});
export interface AdminUsersQuery {
  q?: string;
  page?: number;
  per_page?: number;
}

export const adminRoleSchema = z.enum(['user', 'admin']);
export type AdminRole = z.infer<typeof adminRoleSchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: adminRoleSchema,
  plan_id: z.string(),
  plan_name: z.string(),
  /** When an admin disabled the account; null: it may sign in. */
  disabled_at: z.string().nullable(),
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  created_at: z.string(),
  /** The newest session's start, while one is kept (sessions end after a week); null: unknown. */
  last_sign_in_at: z.string().nullable(),
  /** Ciphertext bytes on this server (what the storage quota counts). */
  storage_used_bytes: z.number(),
  vault_count: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  /** Users matching the search, over all pages. */
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const adminUserResponseSchema = z.object({ user: adminUserSchema });
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;

/**
 * PATCH /api/admin/users/:id: any of the plan (no payment), the role and the disabled flag. An
 * admin cannot demote or disable themself (409).
 */
export const updateAdminUserRequestSchema = z
  .strictObject({
    plan_id: planIdSchema.optional(),
    role: adminRoleSchema.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((b) => b.plan_id !== undefined || b.role !== undefined || b.disabled !== undefined, {
    message: 'Nothing to change',
  });
export type UpdateAdminUserRequest = z.infer<typeof updateAdminUserRequestSchema>;

/**
 * The audit log's actor of a change made with `npm run admin` (no account is signed in there): the
 * row names the command instead of an admin.
 */
export const ADMIN_COMMAND_ACTOR = 'admin-command';

export const adminSessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  /** Last refreshed (Better Auth renews a session at most daily). */
  updated_at: z.string(),
  expires_at: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The session the asking admin is using: ending it signs them out. */
  current: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

export const adminSessionsResponseSchema = z.object({ sessions: z.array(adminSessionSchema) });
export type AdminSessionsResponse = z.infer<typeof adminSessionsResponseSchema>;

export const revokedSessionsResponseSchema = z.object({ revoked: z.number() });
export type RevokedSessionsResponse = z.infer<typeof revokedSessionsResponseSchema>;

export const adminDeletedResponseSchema = z.object({ deleted: z.literal(true) });

export const adminStorageResponseSchema = z.object({
  /** Every account's storage used here, summed. */
  total_bytes: z.number(),
  user_count: z.number(),
  /** The accounts using the most, largest first (at most 100). */
  users: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      storage_used_bytes: z.number(),
      vault_count: z.number(),
    }),
  ),
});
export type AdminStorageResponse = z.infer<typeof adminStorageResponseSchema>;

/** GET /api/admin/instance: read-only settings of this server, from its configuration. */
export const adminInstanceResponseSchema = z.object({
  signup_mode: signupModeSchema,
  plans_mode: plansModeSchema,
  /** The plan new accounts start on. */
  default_plan: z.string(),
  version: z.string(),
  commit: z.string(),
  health: z.object({
    status: z.enum(['ok', 'failing']),
    database: z.enum(['sqlite', 'postgres']),
  }),
});
export type AdminInstanceResponse = z.infer<typeof adminInstanceResponseSchema>;

/** GET /api/admin/audit?page=&per_page=, newest first. */
export const adminAuditQuerySchema = z.strictObject({ page, per_page: perPage });
export interface AdminAuditQuery {
  page?: number;
  per_page?: number;
}

export const adminAuditEntrySchema = z.object({
  id: z.string(),
  actor_id: z.string(),
  /** The admin's e-mail while that account exists. */
  actor_email: z.string().nullable(),
  /** `<thing>.<verb>`: invitation.create, user.plan, user.role, user.disable, user.delete, ... */
  action: z.string(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

export const adminAuditResponseSchema = z.object({
  entries: z.array(adminAuditEntrySchema),
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
});
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>;

/** The sign-in refusal of a disabled account (Better Auth's `{ code, message }`). */
export const ACCOUNT_DISABLED_CODE = 'ACCOUNT_DISABLED';

// Ours (the spec shows none for these).
export const adminMessages = {
  accountDisabled: 'This account is disabled. Ask the administrator of this server.',
  userNotFound: 'User not found',
  sessionNotFound: 'Session not found',
  notYourself: 'You cannot demote, disable or delete your own account.',
  noSecondFactor: 'This user has no second factor.',
} as const;
