// The admin console's read-only sections (issue 33): Storage (in total and per account), Instance
// (the sign-up policy and plans mode from the server's configuration, its version and health) and
// the Audit log (newest first, a page at a time).
import { ADMIN_COMMAND_ACTOR, userMessage, type AdminAuditEntry } from '@sealvault/protocol';
import { useState, type ReactNode } from 'react';
import { FormMessage } from '../components/Field.tsx';
import { formatBytes, formatTime, planLabel } from './format.ts';
import { Pager } from './Pager.tsx';
import { ADMIN_PAGE_SIZE, useAdminAudit, useAdminInstance, useAdminStorage } from './useAdmin.ts';

const card =
  'rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
      Loading {what}...
    </p>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2.5">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="text-sm font-medium break-all text-slate-900 dark:text-white">{children}</dd>
    </div>
  );
}

export function StorageSection() {
  const storage = useAdminStorage();
  if (storage.isPending) return <Loading what="storage" />;
  if (storage.isError)
    return (
      <FormMessage kind="error">
        {userMessage(storage.error, 'Could not load the storage')}
      </FormMessage>
    );
  const { total_bytes, user_count, users } = storage.data;
  return (
    <div className="space-y-4">
      <dl className={`${card} divide-y divide-slate-200 !py-2 dark:divide-slate-800`}>
        <Row term="Total used on this server">{formatBytes(total_bytes)}</Row>
        <Row term="Accounts">{user_count}</Row>
      </dl>
      <ul
        aria-label="Storage per user"
        className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
      >
        {users.map((u) => (
          <li key={u.id} className="flex items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
                {u.email}
              </p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                {u.vault_count === 1 ? '1 vault' : `${u.vault_count} vaults`}
              </p>
            </div>
            <span className="shrink-0 text-sm font-medium text-slate-900 tabular-nums dark:text-white">
              {formatBytes(u.storage_used_bytes)}
            </span>
          </li>
        ))}
      </ul>
      {user_count > users.length && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          The {users.length} accounts using the most are shown.
        </p>
      )}
    </div>
  );
}

const SIGNUP_TEXT = {
  open: 'Open: anyone may create an account',
  invite: 'By invitation only',
  closed: 'Closed: no new accounts',
} as const;

const PLANS_TEXT = {
  saas: 'Plans with payment (SaaS)',
  'self-hosted': 'Self-hosted: no pricing or checkout',
} as const;

export function InstanceSection() {
  const instance = useAdminInstance();
  if (instance.isPending) return <Loading what="the server's settings" />;
  if (instance.isError)
    return (
      <FormMessage kind="error">
        {userMessage(instance.error, "Could not load the server's settings")}
      </FormMessage>
    );
  const i = instance.data;
  return (
    <div className="space-y-3">
      <dl className={`${card} divide-y divide-slate-200 !py-2 dark:divide-slate-800`}>
        <Row term="Sign-up">{SIGNUP_TEXT[i.signup_mode]}</Row>
        <Row term="Plans">{PLANS_TEXT[i.plans_mode]}</Row>
        <Row term="New accounts start on">{planLabel(i.default_plan)}</Row>
        <Row term="Version">
          {i.version} ({i.commit})
        </Row>
        <Row term="Health">
          <span
            className={
              i.health.status === 'ok'
                ? 'text-emerald-700 dark:text-emerald-300'
                : 'text-red-700 dark:text-red-300'
            }
          >
            {i.health.status === 'ok' ? 'Healthy' : 'Failing'}
          </span>{' '}
          · {i.health.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}
        </Row>
      </dl>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        These come from the server&apos;s configuration (SIGNUP_MODE, PLANS_MODE, DEFAULT_PLAN) and
        change with it.
      </p>
    </div>
  );
}

const ACTIONS: Record<string, string> = {
  'invitation.create': 'Created an invitation',
  'invitation.revoke': 'Revoked an invitation',
  'user.plan': 'Changed a plan',
  'user.role': 'Changed a role',
  'user.disable': 'Disabled an account',
  'user.enable': 'Enabled an account',
  'user.delete': 'Deleted an account',
  'user.two_factor.reset': 'Reset a second factor',
  'user.session.revoke': 'Ended a session',
  'user.sessions.revoke': 'Ended all sessions',
};

/** The entry's particulars in a line: its e-mail, then what changed. */
function summary(e: AdminAuditEntry): string {
  const d = e.details;
  const parts: string[] = [];
  if (typeof d.email === 'string') parts.push(d.email);
  if (typeof d.from === 'string' && typeof d.to === 'string') parts.push(`${d.from} → ${d.to}`);
  if (typeof d.revoked === 'number') parts.push(`${d.revoked} ended`);
  return parts.join(' · ');
}

export function AuditSection() {
  const [page, setPage] = useState(1);
  const audit = useAdminAudit(page);
  if (audit.isPending) return <Loading what="the audit log" />;
  if (audit.isError)
    return (
      <FormMessage kind="error">
        {userMessage(audit.error, 'Could not load the audit log')}
      </FormMessage>
    );
  const { entries, total } = audit.data;
  return (
    <div className="space-y-4">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No admin actions yet.</p>
      ) : (
        <ol
          aria-label="Audit log"
          className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        >
          {entries.map((e) => (
            <li key={e.id} className="px-4 py-3">
              <p className="text-sm font-medium text-slate-900 dark:text-white">
                {ACTIONS[e.action] ?? e.action}
              </p>
              <p className="text-xs break-all text-slate-500 dark:text-slate-400">
                {formatTime(e.created_at)} · by{' '}
                {e.actor_id === ADMIN_COMMAND_ACTOR
                  ? 'the admin command (npm run admin)'
                  : (e.actor_email ?? 'a deleted admin')}
                {summary(e) ? ` · ${summary(e)}` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
      <Pager
        page={page}
        total={total}
        perPage={ADMIN_PAGE_SIZE}
        onPage={setPage}
        label="Audit log pages"
      />
    </div>
  );
}
