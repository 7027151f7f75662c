// The create-vault wizard's steps and gating (spec §2 "Create-vault wizard", §4 "Wizard", §5
// "Vault creation"): 1 basic info, 2 vault type, 3 storage provider, 4 password.
import { messages, type ProviderType, type VaultType } from '@sealvault/protocol';
import { selectableProviders } from './providers.tsx';

export const WIZARD_STEPS = 4;
export const MIN_VAULT_PASSWORD = 8;

export interface WizardState {
  name: string;
  description: string;
  vaultType: VaultType;
  provider: ProviderType | null;
  password: string;
  confirm: string;
}

export const initialWizard: WizardState = {
  name: '',
  description: '',
  vaultType: 'files',
  provider: null,
  password: '',
  confirm: '',
};

export const NAME_REQUIRED = 'Vault name is required';

/**
 * The first problem that keeps `step` from moving on, or null when it may. `selectable` is what
 * step 3 may choose from (only connected providers, spec §2).
 */
export function stepError(
  step: number,
  s: WizardState,
  selectable: readonly ProviderType[] = selectableProviders(undefined, s.vaultType),
): string | null {
  switch (step) {
    case 1:
      return s.name.trim() === '' ? NAME_REQUIRED : null;
    case 2:
      return null;
    case 3:
      return s.provider === null || !selectable.includes(s.provider)
        ? messages.vaults.selectProvider
        : null;
    case 4:
      if (s.password.length < MIN_VAULT_PASSWORD) return messages.vaults.passwordTooShort;
      if (s.password !== s.confirm) return messages.auth.passwordsDoNotMatch;
      return null;
    default:
      return null;
  }
}

/** Changing the vault type clears the chosen provider (spec §2, step 3). */
export function withVaultType(s: WizardState, vaultType: VaultType): WizardState {
  return vaultType === s.vaultType ? s : { ...s, vaultType, provider: null };
}

export const progressPercent = (step: number) => Math.round((step / WIZARD_STEPS) * 100);
