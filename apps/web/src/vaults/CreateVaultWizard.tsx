// The create-vault wizard (docs/product.md §2): 4 steps with 'Step x of 4' and a percentage. Keys are made
// in the crypto Worker from the password, which never leaves the browser; the server receives the
// wrapped key slot only.
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import {
  canCreateVault,
  canCreateVaultOfType,
  type FREE_PLAN_ONE_OF_EACH,
  messages,
  userMessage,
  vaultsApi,
  type VaultType,
} from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { FormMessage } from '../components/Field.tsx';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { useLimits, useVaultList, vaultKeysQuery } from './useVaults.ts';
import {
  initialWizard,
  progressPercent,
  stepSchema,
  WIZARD_STEPS,
  type WizardState,
} from './wizard.ts';
import { InfoStep, PasswordStep, ProviderStep, TypeStep } from './WizardSteps.tsx';
import { folderNameFor } from '../storage/cloud/folders.ts';
import { StorageError } from '../storage/provider.ts';
import { providerFor } from '../storage/providers.ts';
import { providerInfo } from './providers.tsx';
import { i18n, msg, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

/** Spec §8 (Vaults): the cloud folder of a new vault could not be made (translated when called). */
const folderFailed = (provider: string, err: unknown) =>
  err instanceof StorageError && err.code === 'unavailable'
    ? i18n.t('{{provider}} not connected. Please connect {{provider}} first.', { provider })
    : i18n.t('Failed to create {{provider}} folder. Please try again.', { provider });

/** The protocol's FREE_PLAN_ONE_OF_EACH, marked for translation (its type holds it to that text). */
const ONE_OF_EACH: typeof FREE_PLAN_ONE_OF_EACH = msg(
  'The Free plan has one file vault and one secrets vault. Upgrade to create more.',
);

export function CreateVaultWizard({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [step, setStep] = useState(1);
  const { limits } = useLimits();
  const vaults = useVaultList().data ?? [];
  // Spec §9: on the Free plan a type the user already has is not offered again.
  const unavailable: Partial<Record<VaultType, string>> = {};
  for (const type of ['files', 'secrets'] as const) {
    if (
      canCreateVault(vaults.length, limits.max_vaults) &&
      !canCreateVaultOfType(limits, vaults, type)
    )
      unavailable[type] = ONE_OF_EACH;
  }

  // One form for the four steps; each step's schema checks only the fields that step shows.
  const form = useForm<WizardState>({
    resolver: zodResolver(stepSchema(step, { unavailable, existing: vaults }), undefined, {
      raw: true,
    }),
    defaultValues: initialWizard,
  });
  const {
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting: creating },
  } = form;
  // A step starts as if never submitted: no errors from an earlier attempt, and its fields are
  // checked on the next 'Next', not at every keystroke of a password being typed.
  useEffect(() => {
    form.reset(undefined, { keepValues: true, keepDefaultValues: true });
  }, [form, step]);

  const reset = () => {
    setStep(1);
    form.reset(initialWizard);
  };

  const next = async (state: WizardState) => {
    if (step === 1 && unavailable[state.vaultType]) {
      // The Free plan's other type is the one left: start the next step on it.
      const other = state.vaultType === 'files' ? 'secrets' : 'files';
      if (!unavailable[other]) {
        setValue('vaultType', other);
        setValue('provider', null);
      }
    }
    if (step < WIZARD_STEPS) return setStep(step + 1);
    try {
      const id = crypto.randomUUID();
      const provider = state.provider ?? 'server';
      // A vault on a cloud provider gets its folder there first (docs/product.md §7: the product
      // prefix, an underscore, the vault name); the vault records where it is. A secrets vault
      // keeps its segments there (ADR 0008).
      const storage = providerFor(provider);
      const storageFolder = storage.makeFolder
        ? await storage.makeFolder(folderNameFor(state.name.trim())).catch((err: unknown) => {
            throw new Error(folderFailed(providerInfo(provider).name, err), { cause: err });
          })
        : undefined;
      const key = await vaultKeys.create(id, state.password);
      await vaultsApi.create({
        id,
        name: state.name.trim(),
        description: state.description.trim() || undefined,
        vault_type: state.vaultType,
        provider_type: provider,
        ...(storageFolder ? { storage_folder: storageFolder } : {}),
        key,
      });
      // Ask the browser to keep a "This browser" vault's data (persistent storage) right away.
      if (state.provider === 'local') await providerFor('local').prepare(id);
      await qc.invalidateQueries({ queryKey: vaultKeysQuery.all });
      onOpenChange(false);
      reset();
    } catch (err) {
      setError('root', { message: userMessage(err, messages.vaults.createFailed) });
    }
  };

  const percent = progressPercent(step);
  return (
    <Modal
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (!o) reset();
      }}
      closable={!creating}
      title={t('Create New Vault')}
      description={
        <span className="flex items-center justify-between gap-4">
          <span>
            {t('Step {{step}} of {{total}}', {
              step: formatNumber(step),
              total: formatNumber(WIZARD_STEPS),
            })}
          </span>
          <span>{formatNumber(percent / 100, { style: 'percent' })}</span>
        </span>
      }
      footer={
        <DialogFooter
          onCancel={() => setStep((s) => s - 1)}
          cancelText={t('Back')}
          cancelDisabled={step === 1 || creating}
          submit={step < WIZARD_STEPS ? t('Next') : t('Create Vault')}
          busyText={t('Creating...')}
          busy={creating}
          form="create-vault-form"
        />
      }
    >
      <div
        role="progressbar"
        aria-label={t('Wizard progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="mb-5 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
      >
        <div
          className="h-full rounded-full bg-indigo-500 transition-all"
          style={{ width: `${percent}%` }}
        />
      </div>
      <FormProvider {...form}>
        <form
          id="create-vault-form"
          noValidate
          onSubmit={(e) => void handleSubmit(next)(e)}
          className="space-y-4"
        >
          {errors.root?.message && <FormMessage kind="error">{t(errors.root.message)}</FormMessage>}
          {step === 1 && <InfoStep />}
          {step === 2 && <TypeStep unavailable={unavailable} />}
          {step === 3 && <ProviderStep />}
          {step === 4 && <PasswordStep />}
        </form>
      </FormProvider>
    </Modal>
  );
}
