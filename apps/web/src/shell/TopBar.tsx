// The top bar of the signed-in screens (docs/product.md §2): product name, the 'End-to-End Encrypted'
// badge, the current plan with a star (grey for free), a Dashboard button, the theme toggle and
// the user menu. On a phone (below `sm`) the word mark and the badge's and Dashboard's labels are
// left to screen readers and a long plan name truncates, so that the user menu, the only way to
// Settings and Logout, stays on screen down to 360 px (e2e/specs/a11y.spec.ts checks it).
import { LayoutDashboard, Lock, Star } from 'lucide-react';
import { Link } from 'react-router';
import { useProfile } from '../auth/useAccount.ts';
import { LogoMark } from '../components/Logo.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';
import { useSession } from './session.tsx';
import { UserMenu } from './UserMenu.tsx';

export function TopBar() {
  const { t } = useTranslation();
  const { user } = useSession();
  const profile = useProfile();
  const fullName = profile.data?.full_name ?? (user.name || null);
  const email = profile.data?.email ?? user.email;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:gap-3 sm:px-6">
        <Link
          to="/dashboard"
          className="flex shrink-0 items-center gap-2.5 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-500"
        >
          <LogoMark className="size-8" />
          <span className="text-lg font-bold tracking-tight text-slate-900 max-sm:sr-only dark:text-white">
            SealVault
          </span>
        </Link>
        <span
          title={t('End-to-End Encrypted')}
          className="inline-flex shrink-0 items-center gap-1 rounded-full border border-emerald-200 bg-emerald-50 px-1.5 py-1 text-xs font-medium text-emerald-700 sm:px-2.5 sm:py-0.5 dark:border-emerald-900/70 dark:bg-emerald-950/60 dark:text-emerald-300"
        >
          <Lock aria-hidden="true" className="size-3" />
          <span className="max-sm:sr-only">{t('End-to-End Encrypted')}</span>
        </span>

        <div className="ml-auto flex min-w-0 items-center gap-0.5 sm:gap-2">
          {!profile.isError && (
            <PlanBadge planId={profile.data?.plan.id} name={profile.data?.plan.name} />
          )}
          <Link
            to="/dashboard"
            className="inline-flex h-10 shrink-0 items-center gap-2 rounded-lg px-2.5 text-sm font-medium sm:px-3 text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
          >
            <LayoutDashboard aria-hidden="true" className="size-4" />
            <span className="hidden md:inline">{t('Dashboard')}</span>
            <span className="sr-only md:hidden">{t('Dashboard')}</span>
          </Link>
          <ThemeToggle className="shrink-0" />
          <UserMenu fullName={fullName} email={email} isAdmin={profile.data?.role === 'admin'} />
        </div>
      </div>
    </header>
  );
}

/** The current plan's name with a star: grey for the free plan, gold for a paid one. */
export function PlanBadge({
  planId,
  name,
}: {
  planId: string | undefined;
  name: string | undefined;
}) {
  const { t } = useTranslation();
  if (!planId || !name) {
    return (
      <span
        aria-hidden="true"
        className="block h-7 w-16 shrink animate-pulse rounded-full bg-slate-100 sm:w-20 dark:bg-slate-800"
      />
    );
  }
  const free = planId === 'free';
  return (
    <Link
      to="/dashboard?view=subscription"
      title={t('Your plan')}
      className={`inline-flex min-w-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 sm:px-3 ${
        free
          ? 'border-slate-200 bg-slate-50 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800'
          : 'border-amber-200 bg-amber-50 text-amber-800 hover:bg-amber-100 dark:border-amber-800/70 dark:bg-amber-950/50 dark:text-amber-200 dark:hover:bg-amber-900/50'
      }`}
    >
      <Star
        aria-hidden="true"
        data-testid="plan-star"
        className={`size-3.5 ${free ? 'text-slate-400' : 'fill-amber-400 text-amber-500'}`}
      />
      <span className="max-w-24 truncate">
        <span className="sr-only">{t('Plan:')} </span>
        {/* A plan's name is a name, shown as the operator wrote it. */}
        <span translate="no">{name}</span>
      </span>
    </Link>
  );
}
