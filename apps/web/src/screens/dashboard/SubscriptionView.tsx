// The subscription view (spec §2 "Subscription page"), also shown at /subscription. Plan cards,
// usage and the FAQ arrive with the Plans work; until then it shows the current plan.
import { Star } from 'lucide-react';
import { Link } from 'react-router';
import { useProfile } from '../../auth/useAccount.ts';
import { buttonClass } from '../../components/buttonStyles.ts';

export function SubscriptionView() {
  const profile = useProfile();
  const plan = profile.data?.plan;
  const free = plan?.id === 'free';
  return (
    <section aria-labelledby="subscription-title" className="max-w-3xl">
      <div className="flex items-center gap-3">
        <h1
          id="subscription-title"
          className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white"
        >
          Subscription Management
        </h1>
        {profile.data?.role === 'admin' && (
          <span className="rounded-full bg-indigo-100 px-2.5 py-0.5 text-xs font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
            Admin
          </span>
        )}
      </div>
      <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 dark:border-slate-800 dark:bg-slate-900">
        <p className="text-sm text-slate-600 dark:text-slate-400">Current plan</p>
        <p className="mt-1 flex items-center gap-2 text-xl font-semibold text-slate-900 dark:text-white">
          <Star
            aria-hidden="true"
            className={`size-5 ${free ? 'text-slate-400' : 'fill-amber-400 text-amber-500'}`}
          />
          {plan?.name ?? '…'}
        </p>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Plan changes are not available here yet. Compare the plans on the home page.
        </p>
        <Link to="/#pricing" className={buttonClass('secondary', 'md', 'mt-5')}>
          See plans
        </Link>
      </div>
    </section>
  );
}
