// The database side of OPAQUE account passwords ([Note: OPAQUE passwords] in opaque.password.ts):
// registration records, the server's login state between a login's start and finish (several
// instances share the database, so either may take the finish), and single-use tickets. Tickets
// and claim tokens are stored as SHA-256 hashes only; every "use once" is one atomic DELETE or
// UPDATE … RETURNING, so two parallel requests cannot both spend the same one.
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** How long a login may take between its start and its finish. */
export const LOGIN_TTL_MS = 120_000;
/** How long a ticket proves the password (docs/auth.md, "OPAQUE"). */
export const TICKET_TTL_MS = 60_000;
/** How long a fresh record waits for the request that attaches it to an account. */
export const CLAIM_TTL_MS = 10 * 60_000;
/** Records no account names are dropped after this long (orphans of failed or replaced sign-ups). */
const ORPHAN_AGE_MS = 60 * 60_000;

/** The value of `account.password` of an account whose password is an OPAQUE record. */
export const MARKER_PREFIX = 'opaque$v1$';
export const TICKET_PREFIX = 'opaque-ticket.';
export const RECORD_TOKEN_PREFIX = 'opaque-record.';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');
export const randomId = () => randomBytes(32).toString('base64url');

/** True for a string shaped like a ticket (it may still be unknown, spent or expired). */
export const isTicket = (s: unknown): s is string =>
  typeof s === 'string' && s.startsWith(TICKET_PREFIX) && TOKEN.test(s.slice(TICKET_PREFIX.length));

export const isRecordToken = (s: unknown): s is string =>
  typeof s === 'string' &&
  s.startsWith(RECORD_TOKEN_PREFIX) &&
  TOKEN.test(s.slice(RECORD_TOKEN_PREFIX.length));

/** The record id an account's password marker names, or null for anything else (a legacy hash). */
export function recordIdOf(marker: string | null | undefined): string | null {
  if (!marker?.startsWith(MARKER_PREFIX)) return null;
  const id = marker.slice(MARKER_PREFIX.length);
  return TOKEN.test(id) ? id : null;
}

export const markerOf = (recordId: string) => `${MARKER_PREFIX}${recordId}`;

export interface OpaqueStore {
  /**
   * Stores a new record and returns the one-time token that attaches it to an account; null when
   * a record of that id exists already (nothing is overwritten).
   */
  addRecord(id: string, record: string, now: number): Promise<string | null>;
  /** Spends a record token: the record's id, or null when unknown, used or too old. */
  claimRecord(token: string, now: number): Promise<string | null>;
  /** The record text of `id`, or null. */
  record(id: string): Promise<string | null>;
  /** Keeps a login's server state; returns its id. */
  startLogin(recordId: string | null, state: string, now: number): Promise<string>;
  /** Takes (and deletes) a login's state, or null when unknown or expired. */
  takeLogin(id: string, now: number): Promise<{ recordId: string | null; state: string } | null>;
  /** A new ticket proving the password of the account whose marker names `recordId`. */
  issueTicket(recordId: string, now: number): Promise<string>;
  /** Spends a ticket of that record: true once, when it is known and unexpired. */
  spendTicket(ticket: string, recordId: string, now: number): Promise<boolean>;
  /** Drops expired logins and tickets and records no account names any more. */
  sweep(now: number): Promise<void>;
}

export function opaqueStore(db: Db): OpaqueStore {
  const k = db.kysely;
  let lastSweep = 0;
  const store: OpaqueStore = {
    async addRecord(id, record, now) {
      const token = randomId();
      const added = await k
        .insertInto('opaque_records')
        .values({ id, record, claim_hash: digest(token), created_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return added ? `${RECORD_TOKEN_PREFIX}${token}` : null;
    },
    async claimRecord(token, now) {
      if (!isRecordToken(token)) return null;
      const row = await k
        .updateTable('opaque_records')
        .set({ claim_hash: null })
        .where('claim_hash', '=', digest(token.slice(RECORD_TOKEN_PREFIX.length)))
        .where('created_at', '>', now - CLAIM_TTL_MS)
        .returning('id')
        .executeTakeFirst();
      return row?.id ?? null;
    },
    async record(id) {
      const row = await k
        .selectFrom('opaque_records')
        .select('record')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.record ?? null;
    },
    async startLogin(recordId, state, now) {
      const id = randomId();
      await k
        .insertInto('opaque_logins')
        .values({ id, record_id: recordId, state, expires_at: now + LOGIN_TTL_MS })
        .execute();
      void store.sweep(now).catch(() => undefined);
      return id;
    },
    async takeLogin(id, now) {
      const row = await k
        .deleteFrom('opaque_logins')
        .where('id', '=', id)
        .returning(['record_id', 'state', 'expires_at'])
        .executeTakeFirst();
      if (!row || Number(row.expires_at) <= now) return null;
      return { recordId: row.record_id, state: row.state };
    },
    async issueTicket(recordId, now) {
      const token = randomId();
      await k
        .insertInto('opaque_tickets')
        .values({ token_hash: digest(token), record_id: recordId, expires_at: now + TICKET_TTL_MS })
        .execute();
      return `${TICKET_PREFIX}${token}`;
    },
    async spendTicket(ticket, recordId, now) {
      if (!isTicket(ticket)) return false;
      const row = await k
        .deleteFrom('opaque_tickets')
        .where('token_hash', '=', digest(ticket.slice(TICKET_PREFIX.length)))
        .where('record_id', '=', recordId)
        .returning('expires_at')
        .executeTakeFirst();
      return row !== undefined && Number(row.expires_at) > now;
    },
    async sweep(now) {
      // At most once a minute per process.
      if (now - lastSweep < 60_000) return;
      lastSweep = now;
      await k.deleteFrom('opaque_logins').where('expires_at', '<=', now).execute();
      await k.deleteFrom('opaque_tickets').where('expires_at', '<=', now).execute();
      await k
        .deleteFrom('opaque_records')
        .where('created_at', '<=', now - ORPHAN_AGE_MS)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('account')
                .select(sql`1`.as('one'))
                .where(
                  sql<string>`password`,
                  '=',
                  sql<string>`${sql.lit(MARKER_PREFIX)} || opaque_records.id`,
                ),
            ),
          ),
        )
        .execute();
    },
  };
  return store;
}
