// /admin (issue 33, docs/product.md "Admin console"): the console of the admin role. Its sections
// (?section=users|invitations|storage|instance|audit) are links, so each has its own address and
// the browser's back button walks them. Anyone else sees that it is not for them; the API refuses
// them anyway (403). An admin manages accounts here, never what is in them: vault contents are
// end-to-end encrypted and the server has nothing to show.
import { HardDrive, Mail, ScrollText, Server, ShieldAlert, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useProfile } from '../auth/useAccount.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { FormMessage } from '../components/Field.tsx';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { InvitationsSection } from './InvitationsSection.tsx';
import { AuditSection, InstanceSection, StorageSection } from './OverviewSections.tsx';
import { UsersSection } from './UsersSection.tsx';

export const ADMIN_SECTIONS = [
  { id: 'users', title: msg('Users'), icon: Users },
  { id: 'invitations', title: msg('Invitations'), icon: Mail },
  { id: 'storage', title: msg('Storage'), icon: HardDrive },
  { id: 'instance', title: msg('Instance'), icon: Server },
  { id: 'audit', title: msg('Audit log'), icon: ScrollText },
] as const;
export type AdminSectionId = (typeof ADMIN_SECTIONS)[number]['id'];

export function readAdminSection(search: URLSearchParams): AdminSectionId {
  const raw = search.get('section');
  return ADMIN_SECTIONS.find((s) => s.id === raw)?.id ?? 'users';
}

export function NotAllowed() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-6 text-center dark:border-slate-800 dark:bg-slate-900">
      <ShieldAlert aria-hidden="true" className="mx-auto size-10 text-amber-500" />
      <h1 className="mt-3 text-xl font-bold text-slate-900 dark:text-white">{t('Not allowed')}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {t("The admin console is only for this server's administrators.")}
      </p>
      <Link to="/dashboard" className={buttonClass('primary', 'md', 'mt-5')}>
        {t('Back to the dashboard')}
      </Link>
    </div>
  );
}

export function AdminConsole() {
  const profile = useProfile();
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const current = readAdminSection(search);

  if (profile.isPending)
    return (
      <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
        {t('Loading...')}
      </p>
    );
  if (profile.isError)
    return (
      <FormMessage kind="error">{t('Could not load your account. Reload the page.')}</FormMessage>
    );
  if (profile.data.role !== 'admin') return <NotAllowed />;

  const section = ADMIN_SECTIONS.find((s) => s.id === current)!;
  const bodies: Record<AdminSectionId, ReactNode> = {
    users: <UsersSection selfId={profile.data.id} />,
    invitations: <InvitationsSection />,
    storage: <StorageSection />,
    instance: <InstanceSection />,
    audit: <AuditSection />,
  };

  return (
    <div className="mx-auto max-w-5xl lg:grid lg:grid-cols-[11rem_minmax(0,1fr)] lg:gap-x-10">
      <div className="lg:col-span-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          {t('Admin console')}
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {t(
            "This server's accounts, invitations and settings. Vault contents are end-to-end encrypted: nobody here can read them.",
          )}
        </p>
      </div>
      <nav aria-label={t('Admin sections')} className="mt-6 lg:sticky lg:top-24 lg:self-start">
        <ul className="flex flex-wrap gap-1.5 lg:flex-col lg:gap-1">
          {ADMIN_SECTIONS.map((s) => (
            <li key={s.id}>
              <Link
                to={`/admin?section=${s.id}`}
                aria-current={s.id === current ? 'page' : undefined}
                className="flex items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 aria-[current]:bg-indigo-50 aria-[current]:text-indigo-800 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-[current]:bg-indigo-950 dark:aria-[current]:text-indigo-200"
              >
                <s.icon aria-hidden="true" className="size-4" />
                {t(s.title)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="admin-section-title" className="mt-8 min-w-0 lg:mt-6">
        <h2
          id="admin-section-title"
          className="mb-4 text-lg font-semibold text-slate-900 dark:text-white"
        >
          {t(section.title)}
        </h2>
        {bodies[current]}
      </section>
    </div>
  );
}
