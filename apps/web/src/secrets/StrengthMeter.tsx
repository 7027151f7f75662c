// The strength meter under a password field (issue 20): zxcvbn-ts's score (tools/useStrength.ts) as
// a five-step bar, its label, and its warning. A vault password passes the account's e-mail and
// name (tools/strength.ts accountInputs) so a password built on them reads as weak.
import { useMemo } from 'react';
import { useProfile } from '../auth/useAccount.ts';
import { accountInputs, type Strength } from './tools/strength.ts';
import { useStrength } from './tools/useStrength.ts';
import { useTranslation } from '../i18n/i18n.ts';

const COLORS = ['bg-red-600', 'bg-orange-500', 'bg-amber-500', 'bg-lime-600', 'bg-emerald-600'];

export function StrengthMeter({
  password,
  userInputs,
}: {
  password: string;
  userInputs?: readonly string[];
}) {
  const strength = useStrength(password, userInputs);
  if (!strength) return null;
  return <StrengthBar strength={strength} />;
}

export function StrengthBar({ strength }: { strength: Strength }) {
  const { t } = useTranslation();
  const { score, label, warning } = strength;
  return (
    <div className="mt-1.5" data-testid="strength">
      <div className="flex gap-1" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((i) => (
          <span
            key={i}
            className={`h-1 flex-1 rounded-full ${i <= score ? COLORS[score] : 'bg-slate-200 dark:bg-slate-700'}`}
          />
        ))}
      </div>
      <p role="status" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {t('Strength:')}{' '}
        <span className="font-medium text-slate-800 dark:text-slate-200">{t(label)}</span>
        {warning && <span>. {t(warning)}</span>}
      </p>
    </div>
  );
}

/**
 * The meter under a vault password: also held against the account's e-mail and name (GET
 * /api/me), which someone targeting this account would try first.
 */
export function VaultPasswordStrength({ password }: { password: string }) {
  const profile = useProfile();
  const email = profile.data?.email;
  const name = profile.data?.full_name;
  const inputs = useMemo(() => accountInputs(email, name), [email, name]);
  return <StrengthMeter password={password} userInputs={inputs} />;
}
