// The admin console's read-only sections (issue 33): Storage (in total and per account), Instance
// (the sign-up policy and plans mode from the server's configuration, its version and health) and
// the Audit log (newest first, a page at a time).
import { ADMIN_COMMAND_ACTOR, userMessage, type AdminAuditEntry } from '@sealvault/protocol';
import { useState, type ReactNode } from 'react';
import { FormMessage } from '../components/Field.tsx';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { formatBytes, formatTime, planLabel } from './format.ts';
import { Pager } from './Pager.tsx';
import { ADMIN_PAGE_SIZE, useAdminAudit, useAdminInstance, useAdminStorage } from './useAdmin.ts';

const card =
  'rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900';

function Loading({ text }: { text: string }) {
  return (
    <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
      {text}
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
  const { t } = useTranslation();
  const storage = useAdminStorage();
  if (storage.isPending) return <Loading text={t('Loading storage...')} />;
  if (storage.isError)
    return (
      <FormMessage kind="error">
        {t(userMessage(storage.error, msg('Could not load the storage')))}
      </FormMessage>
    );
  const { total_bytes, user_count, users } = storage.data;
  return (
    <div className="space-y-4">
      <dl className={`${card} divide-y divide-slate-200 !py-2 dark:divide-slate-800`}>
        <Row term={t('Total used on this server')}>{formatBytes(total_bytes)}</Row>
        <Row term={t('Accounts')}>{formatNumber(user_count)}</Row>
      </dl>
      <ul
        aria-label={t('Storage per user')}
        className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
      >
        {users.map((u) => (
          <li key={u.id} className="flex items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
                {u.email}
              </p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                {u.vault_count === 1
                  ? t('1 vault')
                  : t('{{count}} vaults', { count: formatNumber(u.vault_count) })}
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
          {t('The {{count}} accounts using the most are shown.', {
            count: formatNumber(users.length),
          })}
        </p>
      )}
    </div>
  );
}

const SIGNUP_TEXT = {
  open: msg('Open: anyone may create an account'),
  invite: msg('By invitation only'),
  closed: msg('Closed: no new accounts'),
} as const;

const PLANS_TEXT = {
  saas: msg('Plans with payment (SaaS)'),
  'self-hosted': msg('Self-hosted: no pricing or checkout'),
} as const;

export function InstanceSection() {
  const { t } = useTranslation();
  const instance = useAdminInstance();
  if (instance.isPending) return <Loading text={t("Loading the server's settings...")} />;
  if (instance.isError)
    return (
      <FormMessage kind="error">
        {t(userMessage(instance.error, msg("Could not load the server's settings")))}
      </FormMessage>
    );
  const i = instance.data;
  return (
    <div className="space-y-3">
      <dl className={`${card} divide-y divide-slate-200 !py-2 dark:divide-slate-800`}>
        <Row term={t('Sign-up')}>{t(SIGNUP_TEXT[i.signup_mode])}</Row>
        <Row term={t('Plans')}>{t(PLANS_TEXT[i.plans_mode])}</Row>
        <Row term={t('New accounts start on')}>{planLabel(i.default_plan)}</Row>
        <Row term={t('Version')}>
          {i.version} ({i.commit})
        </Row>
        <Row term={t('Health')}>
          <span
            className={
              i.health.status === 'ok'
                ? 'text-emerald-700 dark:text-emerald-300'
                : 'text-red-700 dark:text-red-300'
            }
          >
            {i.health.status === 'ok' ? t('Healthy') : t('Failing')}
          </span>{' '}
          · {i.health.database === 'postgres' ? 'PostgreSQL' : 'SQLite'}
        </Row>
      </dl>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {t(
          "These come from the server's configuration (SIGNUP_MODE, PLANS_MODE, DEFAULT_PLAN) and change with it.",
        )}
      </p>
    </div>
  );
}

const ACTIONS: Record<string, string> = {
  'invitation.create': msg('Created an invitation'),
  'invitation.revoke': msg('Revoked an invitation'),
  'user.plan': msg('Changed a plan'),
  'user.role': msg('Changed a role'),
  'user.disable': msg('Disabled an account'),
  'user.enable': msg('Enabled an account'),
  'user.delete': msg('Deleted an account'),
  'user.two_factor.reset': msg('Reset a second factor'),
  'user.session.revoke': msg('Ended a session'),
  'user.sessions.revoke': msg('Ended all sessions'),
};

/** The entry's particulars in a line: its e-mail, then what changed. */
function summary(e: AdminAuditEntry, ended: (count: number) => string): string {
  const d = e.details;
  const parts: string[] = [];
  if (typeof d.email === 'string') parts.push(d.email);
  if (typeof d.from === 'string' && typeof d.to === 'string') parts.push(`${d.from} → ${d.to}`);
  if (typeof d.revoked === 'number') parts.push(ended(d.revoked));
  return parts.join(' · ');
}

export function AuditSection() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const audit = useAdminAudit(page);
  if (audit.isPending) return <Loading text={t('Loading the audit log...')} />;
  if (audit.isError)
    return (
      <FormMessage kind="error">
        {t(userMessage(audit.error, msg('Could not load the audit log')))}
      </FormMessage>
    );
  const { entries, total } = audit.data;
  const actionText = (action: string) => {
    const text = ACTIONS[action];
    return text ? t(text) : action;
  };
  return (
    <div className="space-y-4">
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('No admin actions yet.')}</p>
      ) : (
        <ol
          aria-label={t('Audit log')}
          className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        >
          {entries.map((e) => (
            <li key={e.id} className="px-4 py-3">
              <p className="text-sm font-medium text-slate-900 dark:text-white">
                {actionText(e.action)}
              </p>
              <p className="text-xs break-all text-slate-500 dark:text-slate-400">
                {[
                  e.actor_id === ADMIN_COMMAND_ACTOR
                    ? t('{{time}} · by the admin command (npm run admin)', {
                        time: formatTime(e.created_at),
                      })
                    : e.actor_email != null
                      ? t('{{time}} · by {{email}}', {
                          time: formatTime(e.created_at),
                          email: e.actor_email,
                        })
                      : t('{{time}} · by a deleted admin', { time: formatTime(e.created_at) }),
                  summary(e, (n) => t('{{count}} ended', { count: formatNumber(n) })),
                ]
                  .filter(Boolean)
                  .join(' · ')}
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
        label={t('Audit log pages')}
      />
    </div>
  );
}
