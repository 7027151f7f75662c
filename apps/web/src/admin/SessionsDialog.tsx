// An account's sessions in the admin console: device, address and dates of each (never a token),
// ending one, or all of them after a second click to confirm.
import type { AdminUser } from '@sealvault/protocol';
import { userMessage } from '@sealvault/protocol';
import { useState } from 'react';
import { toast } from 'sonner';
import { buttonClass } from '../components/buttonStyles.ts';
import { FormMessage } from '../components/Field.tsx';
import { Modal } from '../components/Modal.tsx';
import { formatNumber } from '../i18n/format.ts';
import { i18n, msg, useTranslation } from '../i18n/i18n.ts';
import { deviceName } from '../settings/device.ts';
import { formatTime } from './format.ts';
import { useRevokeSessions, useUserSessions } from './useAdmin.ts';

export function SessionsDialog({
  user,
  open,
  onOpenChange,
}: {
  user: AdminUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const sessions = useUserSessions(user.id, open);
  const revoke = useRevokeSessions();
  const [confirmAll, setConfirmAll] = useState(false);

  const end = (sessionId?: string) =>
    revoke.mutate(
      { id: user.id, ...(sessionId ? { sessionId } : {}) },
      {
        onSuccess: ({ revoked }) => {
          setConfirmAll(false);
          toast.success(
            revoked === 1
              ? i18n.t('1 session ended')
              : i18n.t('{{count}} sessions ended', { count: formatNumber(revoked) }),
          );
        },
        onError: (err) => toast.error(i18n.t(userMessage(err, msg('Could not end the session')))),
      },
    );

  const list = sessions.data?.sessions ?? [];
  return (
    <Modal
      open={open}
      onOpenChange={(o) => {
        setConfirmAll(false);
        onOpenChange(o);
      }}
      title={t('Sessions of {{email}}', { email: user.email })}
      description={t(
        'Where this account is signed in. Ending a session signs that device out at its next request.',
      )}
      footer={
        <>
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={() => onOpenChange(false)}
          >
            {t('Close')}
          </button>
          {list.length > 0 && (
            <button
              type="button"
              disabled={revoke.isPending}
              className={buttonClass('danger')}
              onClick={() => (confirmAll ? end() : setConfirmAll(true))}
            >
              {confirmAll
                ? t('Yes, end all {{count}}', { count: formatNumber(list.length) })
                : t('Sign out everywhere')}
            </button>
          )}
        </>
      }
    >
      {sessions.isPending ? (
        <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
          {t('Loading sessions...')}
        </p>
      ) : sessions.isError ? (
        <FormMessage kind="error">
          {t(userMessage(sessions.error, msg('Could not load the sessions')))}
        </FormMessage>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('No active sessions.')}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {list.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-900 dark:text-white">
                  {deviceName(s.user_agent)}
                  {s.current && (
                    <span className="ml-2 rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-700 dark:bg-indigo-500/20 dark:text-indigo-300">
                      {t('This browser')}
                    </span>
                  )}
                </p>
                {s.current && (
                  <p className="mt-0.5 text-xs text-amber-700 dark:text-amber-300">
                    {t('Ending it signs you out here.')}
                  </p>
                )}
                <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                  {s.ip_address ? `${s.ip_address} · ` : ''}
                  {t('Signed in {{signedIn}} · Last active {{lastActive}}', {
                    signedIn: formatTime(s.created_at),
                    lastActive: formatTime(s.updated_at),
                  })}
                </p>
              </div>
              <button
                type="button"
                disabled={revoke.isPending}
                onClick={() => end(s.id)}
                aria-label={
                  s.current
                    ? t(
                        'End session {{device}}, signed in {{date}} (this browser: signs you out)',
                        {
                          device: deviceName(s.user_agent),
                          date: formatTime(s.created_at),
                        },
                      )
                    : t('End session {{device}}, signed in {{date}}', {
                        device: deviceName(s.user_agent),
                        date: formatTime(s.created_at),
                      })
                }
                className={buttonClass('secondary', 'md', '!h-8 !px-3 !text-xs')}
              >
                {t('End')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
