// The admin console's Invitations section (issue 33): make a single-use sign-up link, optionally
// for one e-mail and expiring, copy it (it is shown only once: the server keeps a hash), and the
// list of invitations with their state, an open one revocable.
import type { CreatedInvitation, Invitation } from '@sealvault/protocol';
import { userMessage } from '@sealvault/protocol';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { buttonClass } from '../components/buttonStyles.ts';
import { CopyLinkButton } from '../components/CopyLinkButton.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import { inputClass } from '../components/PasswordInput.tsx';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { formatDay } from './format.ts';
import { useCreateInvitation, useInvitations, useRevokeInvitation } from './useAdmin.ts';

const EXPIRIES = [
  { value: '', label: msg('Never') },
  { value: '24', label: msg('In 1 day') },
  { value: '168', label: msg('In 7 days') },
  { value: '720', label: msg('In 30 days') },
] as const;

const STATUS: Record<Invitation['status'], string> = {
  open: msg('Open'),
  used: msg('Used'),
  expired: msg('Expired'),
  revoked: msg('Revoked'),
};

export function InvitationsSection() {
  const { t } = useTranslation();
  const invitations = useInvitations();
  const create = useCreateInvitation();
  const revoke = useRevokeInvitation();
  const [email, setEmail] = useState('');
  const [expiry, setExpiry] = useState('');
  const [made, setMade] = useState<CreatedInvitation | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      {
        ...(email.trim() ? { email: email.trim() } : {}),
        ...(expiry ? { expires_in_hours: Number(expiry) } : {}),
      },
      {
        onSuccess: (answer) => {
          setMade(answer);
          setEmail('');
        },
      },
    );
  };

  return (
    <div className="space-y-6">
      <form
        onSubmit={submit}
        aria-label={t('New invitation')}
        className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t('Email (optional)')}
            hint={t('Only this address may use the link. Leave empty for anyone who has it.')}
          >
            <input
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              maxLength={254}
              className={inputClass}
            />
          </Field>
          <Field label={t('Expires')}>
            <select
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              className={inputClass}
            >
              {EXPIRIES.map((x) => (
                <option key={x.value} value={x.value}>
                  {t(x.label)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {create.isError && (
          <FormMessage kind="error">
            {t(userMessage(create.error, msg('Could not create the invitation')))}
          </FormMessage>
        )}
        <button type="submit" disabled={create.isPending} className={buttonClass('primary')}>
          {create.isPending ? t('Creating...') : t('Create invitation')}
        </button>
        {made && (
          <div className="space-y-2">
            <FormMessage kind="success">
              {made.invitation.email
                ? t('Invitation created for {{email}}. Copy the link now: it is not shown again.', {
                    email: made.invitation.email,
                  })
                : t('Invitation created. Copy the link now: it is not shown again.')}
            </FormMessage>
            <div className="flex gap-2">
              <label htmlFor="invitation-link" className="sr-only">
                {t('Invitation link')}
              </label>
              <input
                id="invitation-link"
                readOnly
                value={made.url}
                onFocus={(e) => e.currentTarget.select()}
                className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
              />
              <CopyLinkButton
                url={made.url}
                className="!h-11 shrink-0"
                onResult={(ok) =>
                  ok
                    ? toast.success(t('Invitation link copied'))
                    : toast.error(t('Could not copy the link. Select it and copy it by hand.'))
                }
              />
            </div>
          </div>
        )}
      </form>

      {invitations.isPending ? (
        <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
          {t('Loading invitations...')}
        </p>
      ) : invitations.isError ? (
        <FormMessage kind="error">
          {t(userMessage(invitations.error, msg('Could not load the invitations')))}
        </FormMessage>
      ) : invitations.data.invitations.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('No invitations yet.')}</p>
      ) : (
        <ul
          aria-label={t('Invitations')}
          className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        >
          {invitations.data.invitations.map((inv) => (
            <li
              key={inv.id}
              className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
            >
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900 dark:text-white">
                  {inv.email ?? t('Anyone with the link')}
                </p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {inv.expires_at
                    ? t('{{status}} · Created {{created}} · Expires {{expires}}', {
                        status: t(STATUS[inv.status]),
                        created: formatDay(inv.created_at),
                        expires: formatDay(inv.expires_at),
                      })
                    : t('{{status}} · Created {{created}} · Expires never', {
                        status: t(STATUS[inv.status]),
                        created: formatDay(inv.created_at),
                      })}
                </p>
              </div>
              {inv.status === 'open' && (
                <button
                  type="button"
                  disabled={revoke.isPending}
                  aria-label={
                    inv.email
                      ? t('Revoke the invitation for {{email}}, created {{created}}', {
                          email: inv.email,
                          created: formatDay(inv.created_at),
                        })
                      : t('Revoke the invitation for anyone with the link, created {{created}}', {
                          created: formatDay(inv.created_at),
                        })
                  }
                  onClick={() =>
                    revoke.mutate(inv.id, {
                      onSuccess: () => toast.success(t('Invitation revoked')),
                      onError: (err) =>
                        toast.error(t(userMessage(err, msg('Could not revoke the invitation')))),
                    })
                  }
                  className={buttonClass('secondary', 'md', '!h-8 !px-3 !text-xs')}
                >
                  {t('Revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
