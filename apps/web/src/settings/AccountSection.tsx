// The Account section of the settings view: profile, password, two-factor, sessions and
// deleting the account.
import { useHasPassword } from './useAccountMethods.ts';
import { DeleteAccountPanel } from './DeleteAccountPanel.tsx';
import { PasswordPanel } from './PasswordPanel.tsx';
import { ProfilePanel } from './ProfilePanel.tsx';
import { SessionsPanel } from './SessionsPanel.tsx';
import { TwoFactorPanel } from './TwoFactorPanel.tsx';

export function AccountSection() {
  const hasPassword = useHasPassword().data;
  return (
    <section aria-labelledby="account-title" className="space-y-5">
      <h2 id="account-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Account
      </h2>
      <ProfilePanel />
      <PasswordPanel hasPassword={hasPassword} />
      <TwoFactorPanel hasPassword={hasPassword} />
      <SessionsPanel />
      <DeleteAccountPanel hasPassword={hasPassword} />
    </section>
  );
}
