// The settings view (/dashboard?view=settings, docs/product.md §2 "Settings view"): four sections
// with a sub-navigation (issue 25): Account (profile), Security (password, two-factor, passkeys, sessions,
// the idle lock), Storage (the spec's 'Cloud Storage Settings') and Vaults (the spec's 'Vault
// Management'); the red 'Delete account' panel comes last, after all of them.
import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/i18n.ts';
import { CloudStorageSettings } from './CloudStorageSettings.tsx';
import { DeleteAccountPanel } from './DeleteAccountPanel.tsx';
import { IdleLockPanel } from './IdleLockPanel.tsx';
import { LanguagePanel } from './LanguagePanel.tsx';
import { PasskeysPanel } from './PasskeysPanel.tsx';
import { PasswordPanel } from './PasswordPanel.tsx';
import { ProfilePanel } from './ProfilePanel.tsx';
import { SessionsPanel } from './SessionsPanel.tsx';
import { SettingsNav } from './SettingsNav.tsx';
import { SETTINGS_SECTIONS, type SettingsSectionId } from './settingsSections.ts';
import { TwoFactorPanel } from './TwoFactorPanel.tsx';
import { useHasPassword } from './useAccountMethods.ts';
import { VaultManagement } from './VaultManagement.tsx';

function Section({ id, children }: { id: SettingsSectionId; children: ReactNode }) {
  const { t } = useTranslation();
  const title = SETTINGS_SECTIONS.find((s) => s.id === id)!.title;
  return (
    // The scroll margin keeps the heading clear of the sticky top bar when a link jumps here.
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 space-y-5">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900 dark:text-white">
        {t(title)}
      </h2>
      {children}
    </section>
  );
}

export function SettingsView() {
  const { t } = useTranslation();
  const hasPassword = useHasPassword().data;
  return (
    <div className="mx-auto max-w-5xl lg:grid lg:grid-cols-[10rem_minmax(0,1fr)] lg:gap-x-10">
      <div className="lg:col-span-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
          {t('Settings')}
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {t('Your account, your storage providers and your vaults.')}
        </p>
      </div>
      <div className="mt-6">
        <SettingsNav />
      </div>
      <div className="mt-8 min-w-0 space-y-12 lg:mt-6">
        <Section id="settings-account">
          <ProfilePanel />
          <LanguagePanel />
        </Section>
        <Section id="settings-security">
          <PasswordPanel hasPassword={hasPassword} />
          <TwoFactorPanel hasPassword={hasPassword} />
          <PasskeysPanel />
          <SessionsPanel />
          <IdleLockPanel />
        </Section>
        <Section id="settings-storage">
          <CloudStorageSettings />
        </Section>
        <Section id="settings-vaults">
          <VaultManagement />
        </Section>
        <DeleteAccountPanel hasPassword={hasPassword} />
      </div>
    </div>
  );
}
