// Account settings: the account's sessions (device, address, dates), ending one of them, and
// 'Sign out everywhere', which ends every session including this one.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { authClient } from '../auth/authClient.ts';
import { authErrorMessage } from '../auth/authErrors.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { FormMessage } from '../components/Field.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { useSession } from '../shell/session.tsx';
import { useSignOut } from '../shell/useSignOut.ts';
import { deviceName, formatSessionDate } from './device.ts';
import { Panel } from './Panel.tsx';

const sessionsKey = ['auth-sessions'] as const;

export function SessionsPanel() {
  const { t } = useTranslation();
  const current = useSession().session;
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [busy, setBusy] = useState<string | null>(null);
  const sessions = useQuery({
    queryKey: sessionsKey,
    queryFn: async () => {
      const { data, error: failure } = await authClient.listSessions();
      if (failure) throw new Error(authErrorMessage(failure, t('Could not load your sessions')));
      return [...data].sort((a, b) => +new Date(b.updatedAt) - +new Date(a.updatedAt));
    },
  });

  const revoke = async (token: string) => {
    setBusy(token);
    const { error: failure } = await authClient
      .revokeSession({ token })
      .catch(() => ({ error: { message: '' } }));
    setBusy(null);
    if (failure) toast.error(t(authErrorMessage(failure, t('Could not sign out that session'))));
    await queryClient.invalidateQueries({ queryKey: sessionsKey });
  };

  const everywhere = async () => {
    setBusy('all');
    const { error: failure } = await authClient
      .revokeSessions()
      .catch(() => ({ error: { message: '' } }));
    if (failure) {
      setBusy(null);
      toast.error(t(authErrorMessage(failure, t('Could not sign out everywhere'))));
      return;
    }
    await signOut('/auth');
  };

  return (
    <Panel
      title={t('Sessions')}
      description={t('Where your account is signed in. Sign out any device you do not recognise.')}
      icon={<Laptop className="size-5" />}
    >
      {sessions.isPending ? (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-4 animate-spin" /> {t('Loading sessions...')}
        </p>
      ) : sessions.isError ? (
        <FormMessage kind="error">{t(sessions.error.message)}</FormMessage>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {sessions.data.map((s) => {
            const isCurrent = s.id === current.id;
            return (
              <li
                key={s.id}
                className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
              >
                <div className="min-w-0">
                  <p className="flex items-center gap-2 text-sm font-medium text-slate-900 dark:text-white">
                    {deviceName(s.userAgent)}
                    {isCurrent && (
                      <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                        {t('This device')}
                      </span>
                    )}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                    {s.ipAddress ? `${s.ipAddress} · ` : ''}
                    {t('Signed in {{date}}', { date: formatSessionDate(s.createdAt) })} ·{' '}
                    {t('Last active {{date}}', { date: formatSessionDate(s.updatedAt) })}
                  </p>
                </div>
                {!isCurrent && (
                  <button
                    type="button"
                    onClick={() => void revoke(s.token)}
                    disabled={busy !== null}
                    aria-label={t('Sign out {{device}}, signed in {{date}}', {
                      device: deviceName(s.userAgent),
                      date: formatSessionDate(s.createdAt),
                    })}
                    className={buttonClass('secondary', 'md', '!h-8 !px-3 !text-xs')}
                  >
                    {busy === s.token ? t('Signing out...') : t('Sign out')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <button
        type="button"
        onClick={() => void everywhere()}
        disabled={busy !== null}
        className={buttonClass('secondary', 'md', 'mt-4')}
      >
        {busy === 'all' ? t('Signing out...') : t('Sign out everywhere')}
      </button>
    </Panel>
  );
}
