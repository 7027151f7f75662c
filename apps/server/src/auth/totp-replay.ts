// [Note: TOTP replay] A TOTP code (RFC 6238) is good for its 30 s step, and Better Auth accepts the
// steps either side of now as well, but it never remembers which code was used: the same code could
// finish two sign-ins (issue 15, item 7). Here, before Better Auth's verify-totp runs, the code is
// matched to its time step with the user's secret, and the step is claimed for the user in one
// conditional write: a step at or before the last one claimed is refused like a wrong code (401
// INVALID_CODE). RFC 6238 §5.2: "the verifier MUST NOT accept the second attempt of the OTP after
// the successful validation has been issued for the first OTP". A code that matches no step is left
// to Better Auth, which refuses it and counts the failure.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { APIError, getSessionFromCtx } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import { TWO_FACTOR_ERROR_CODES } from 'better-auth/plugins/two-factor';
import type { Db } from '../db/database.ts';
import type { UserDeletedHook } from '../profiles/user-deletion.ts';
import type { HookContext } from './auth.hooks.ts';
import { pendingTwoFactorUserId } from './password-guard.ts';

/** Better Auth's TOTP settings as auth.ts uses them (the plugin's defaults). */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps either side of now that Better Auth accepts (its verify's default window). */
const WINDOW = 1;

type TotpTables = {
  totp_steps: { user_id: string; last_step: number | string };
  twoFactor: { userId: string; secret: string };
};

const tables = (db: Db): Kysely<TotpTables> => db.kysely.withTables<TotpTables>();

/** HOTP (RFC 4226 §5.3) of a counter, as Better Auth computes it: the secret's UTF-8 bytes as key. */
export function hotp(secret: Buffer, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, '0');
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, for secrets Better Auth stores as `base32:<secret>` (imported ones). */
function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.toUpperCase().replace(/=+$/, '')) {
    const i = BASE32.indexOf(ch);
    if (i < 0) continue;
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The time step whose code this is, within Better Auth's window around `now`, or null. */
export function matchingStep(secret: Buffer, code: string, now: number): number | null {
  const current = Math.floor(now / (PERIOD_SECONDS * 1000));
  const given = Buffer.from(code.padEnd(DIGITS, ' ').slice(0, 16));
  let found: number | null = null;
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    const expected = Buffer.from(hotp(secret, step).padEnd(DIGITS, ' '));
    // Every step is compared, in constant time, so timing does not tell which one matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = step;
  }
  return found;
}

/** Claims the step for the user; false when it, or a later one, was already used. */
export async function claimStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await tables(db)
    .insertInto('totp_steps')
    .values({ user_id: userId, last_step: step })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ last_step: step })
        .where('totp_steps.last_step', '<', step),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function userIdOf(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  return session?.user.id ?? (await pendingTwoFactorUserId(ctx));
}

/** Before /two-factor/verify-totp: refuses a code whose step this user already spent. */
export async function refuseReplayedTotp(ctx: HookContext, db: Db): Promise<void> {
  if (ctx.path !== '/two-factor/verify-totp') return;
  const body: unknown = ctx.body;
  const code = body && typeof body === 'object' && 'code' in body ? body.code : undefined;
  if (typeof code !== 'string') return;
  const userId = await userIdOf(ctx);
  if (!userId) return;
  const row = await tables(db)
    .selectFrom('twoFactor')
    .select('secret')
    .where('userId', '=', userId)
    .executeTakeFirst();
  if (!row) return;
  const stored = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret });
  const secret = stored.startsWith('base32:')
    ? base32Decode(stored.slice('base32:'.length))
    : Buffer.from(stored, 'utf8');
  const step = matchingStep(secret, code, Date.now());
  if (step === null) return;
  if (!(await claimStep(db, userId, step)))
    throw APIError.from('UNAUTHORIZED', TWO_FACTOR_ERROR_CODES.INVALID_CODE);
}

/** [Note: user deletion hooks] The used TOTP steps of a deleted account. */
export const deleteTotpStepsOfUser: UserDeletedHook = async ({ db, userId }) => {
  await tables(db).deleteFrom('totp_steps').where('user_id', '=', userId).execute();
};
