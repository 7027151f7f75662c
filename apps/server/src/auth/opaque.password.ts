// [Note: OPAQUE passwords] The account password never reaches the server (RFC 9807, issue 30;
// docs/auth.md, "OPAQUE"). Better Auth still runs every flow that takes a password (sign-in with
// its two-factor step, e-mail verification and known devices; verify-password; change-password;
// reset-password; two-factor enable/disable; DELETE /api/me), but what travels in its `password`
// fields is one of two stand-ins the OPAQUE endpoints (opaque.plugin.ts) hand out:
// - a ticket (`opaque-ticket.<32 random bytes>`), from a finished OPAQUE login: it proves the
//   password of one account once, for 60 seconds. It goes where the current password went;
// - a record token (`opaque-record.<32 random bytes>`), from a finished OPAQUE registration: it
//   attaches that registration record to the account once, within 10 minutes. It goes where a new
//   password went (sign-up, change-password, reset-password).
// Better Auth's password hooks (emailAndPassword.password) turn them into `account.password`:
// `hash(record token)` is the marker `opaque$v1$<record id>` naming the stored record, and
// `verify({ hash: marker, password: ticket })` spends the ticket if it was issued for that record.
// A marker never verifies anything but a ticket, and a legacy scrypt hash never verifies a
// stand-in. A new password in the clear is refused (400) on sign-up, change and reset, so no new
// hash of a password is ever stored; an account with a legacy hash still signs in the old way and
// moves to OPAQUE then (moveLegacyAccount). The attempt budget is spent at the OPAQUE login's
// start, where the server evaluates its OPRF on the client's guess, so routes carrying a ticket do
// not spend it again (password-guard.ts).
import { APIError } from 'better-auth/api';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { OPAQUE_MOVE_HEADER } from '@sealvault/protocol';
import type { Db } from '../db/database.ts';
import type { PasswordHashing } from './auth.ts';
import type { HookContext } from './auth.hooks.ts';
import { isRecordToken, isTicket, markerOf, recordIdOf, type OpaqueStore } from './opaque.store.ts';

// Better Auth's table, typed here for the one update this module makes (as reset-tokens.ts does).
type AccountTables = { account: { id: string; password: string | null } };

export const opaqueRequired = () =>
  APIError.from('BAD_REQUEST', {
    code: 'OPAQUE_REQUIRED',
    message: 'Please reload the page and try again.', // ours: an outdated client sent a password
  });

/** Better Auth's password hooks, with the stand-ins of [Note: OPAQUE passwords] understood. */
export function opaqueHashing(
  store: OpaqueStore,
  inner: PasswordHashing | undefined,
  now: () => number = Date.now,
): PasswordHashing {
  const legacy: PasswordHashing = inner ?? { hash: hashPassword, verify: verifyPassword };
  return {
    hash: async (password) => {
      if (isRecordToken(password)) {
        const id = await store.claimRecord(password, now());
        if (!id) throw opaqueRequired();
        return markerOf(id);
      }
      // Better Auth hashes a sign-in's password when the e-mail is unknown, to take as long as a
      // check would: a ticket is checked by one query, so one query stands in for it here.
      if (isTicket(password)) {
        await store.spendTicket(password, '-', now());
        return markerOf('-');
      }
      return legacy.hash(password);
    },
    verify: async ({ hash, password }) => {
      const recordId = recordIdOf(hash);
      if (recordId) return isTicket(password) && store.spendTicket(password, recordId, now());
      if (hash.startsWith('opaque$') || isTicket(password) || isRecordToken(password)) return false;
      return legacy.verify({ hash, password });
    },
  };
}

const NEW_PASSWORD_FIELD: Readonly<Record<string, string>> = {
  '/sign-up/email': 'password',
  '/change-password': 'newPassword',
  '/reset-password': 'newPassword',
};

/** Before hook: a new password must be a record token, unless plain ones are allowed (tests). */
export function refusePlainNewPassword(ctx: HookContext, allowPlain: boolean): void {
  const field = NEW_PASSWORD_FIELD[ctx.path];
  if (!field || allowPlain) return;
  const body: unknown = ctx.body;
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : null;
  if (typeof value === 'string' && !isRecordToken(value)) throw opaqueRequired();
}

/**
 * After hook of /sign-in/email: a legacy account (a Better Auth hash in account.password) that
 * just proved its password the old way, with a record token in OPAQUE_MOVE_HEADER, gets the record in
 * place of the hash, in one update that only applies while the hash is still the one checked.
 */
export async function moveLegacyAccount(
  ctx: HookContext,
  db: Db,
  store: OpaqueStore,
  now: () => number = Date.now,
): Promise<void> {
  if (ctx.path !== '/sign-in/email') return;
  const token =
    ctx.headers?.get(OPAQUE_MOVE_HEADER) ?? ctx.request?.headers.get(OPAQUE_MOVE_HEADER);
  const userId = ctx.context.newSession?.user.id;
  if (!token || !userId) return;
  const account = await ctx.context.internalAdapter.findCredentialAccount(userId);
  const old = account?.password;
  if (!account || !old || old.startsWith('opaque$')) return;
  const recordId = await store.claimRecord(token, now());
  if (!recordId) return;
  await db.kysely
    .withTables<AccountTables>()
    .updateTable('account')
    .set({ password: markerOf(recordId) })
    .where('id', '=', account.id)
    .where('password', '=', old)
    .execute();
}
