// The line a read-only vault shows above its contents: over the Free plan's allowance after a
// trial lapsed ([Note: read-only after a trial] in the protocol's trials.ts). The server refuses
// every change to it; this says why before the user tries, and where to change the plan.
import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { trialMessages } from '@sealvault/protocol';
import { useTranslation } from '../i18n/i18n.ts';

export function ReadOnlyNotice() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      data-testid="vault-read-only"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/50 dark:text-amber-200"
    >
      <span className="flex items-start gap-2">
        <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {t(trialMessages.readOnlyVault)}
      </span>
      <Link
        to="/dashboard?view=subscription"
        className="shrink-0 font-medium underline underline-offset-2"
      >
        {t('See plans')}
      </Link>
    </div>
  );
}
