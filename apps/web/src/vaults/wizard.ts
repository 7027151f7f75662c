// The create-vault wizard's steps and gating (docs/product.md §2 "Create-vault wizard", §4 "Wizard", §5
// "Vault creation"): 1 basic info, 2 vault type, 3 storage provider, 4 password.
import { z } from 'zod';
import { isVaultNameTaken, messages, type ProviderType, type VaultType } from '@sealvault/protocol';
import { msg } from '../i18n/i18n.ts';
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

// The steps' messages are English (the protocol's, and these): the steps show them with t().
export const NAME_REQUIRED = msg('Vault name is required');

/** A vault password (docs/product.md §5 "Vault creation"): at least 8 characters. */
export const vaultPassword = z.string().min(MIN_VAULT_PASSWORD, messages.vaults.passwordTooShort);

const anyState = {
  name: z.string(),
  description: z.string(),
  vaultType: z.enum(['files', 'secrets']),
  provider: z.custom<ProviderType | null>(),
  password: z.string(),
  confirm: z.string(),
};

export interface StepRules {
  /** What step 3 may choose from for a vault type (only connected providers, docs/product.md §2). */
  selectable?: (vaultType: VaultType) => readonly ProviderType[];
  /** Vault types the plan does not allow now, with the reason (docs/product.md §9). */
  unavailable?: Partial<Record<VaultType, string>>;
  /** The account's vaults: a name one of them has is refused at step 1 (issue 25). */
  existing?: readonly { id: string; name: string }[];
}

/**
 * What keeps `step` from moving on: a schema of the whole state that checks only that step's
 * fields, each with its own message.
 */
export function stepSchema(
  step: number,
  {
    selectable = (t) => selectableProviders(undefined, t),
    unavailable = {},
    existing = [],
  }: StepRules = {},
): z.ZodType<WizardState, WizardState> {
  switch (step) {
    case 1:
      return z.object({
        ...anyState,
        name: z
          .string()
          .trim()
          .min(1, NAME_REQUIRED)
          .refine((n) => !isVaultNameTaken(existing, n), messages.vaults.duplicateName),
      });
    case 2:
      return z.object(anyState).superRefine((s, ctx) => {
        const why = unavailable[s.vaultType];
        if (why) ctx.addIssue({ code: 'custom', path: ['vaultType'], message: why });
      });
    case 3:
      return z.object(anyState).superRefine((s, ctx) => {
        if (s.provider === null || !selectable(s.vaultType).includes(s.provider))
          ctx.addIssue({
            code: 'custom',
            path: ['provider'],
            message: messages.vaults.selectProvider,
          });
      });
    case 4:
      return z
        .object({ ...anyState, password: vaultPassword })
        .refine((s) => s.password === s.confirm, {
          message: messages.auth.passwordsDoNotMatch,
          path: ['confirm'],
        });
    default:
      return z.object(anyState);
  }
}

export const progressPercent = (step: number) => Math.round((step / WIZARD_STEPS) * 100);
