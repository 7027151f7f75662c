// The create-vault wizard (spec §2): 4 steps with 'Step x of 4' and a percentage. Keys are made
// in the crypto Worker from the password, which never leaves the browser; the server receives the
// wrapped key slot only.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  canCreateVault,
  canCreateVaultOfType,
  FREE_PLAN_ONE_OF_EACH,
  messages,
  userMessage,
  vaultsApi,
  type VaultType,
} from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { useLimits, useVaultList, vaultKeysQuery } from './useVaults.ts';
import {
  initialWizard,
  progressPercent,
  stepError,
  WIZARD_STEPS,
  withVaultType,
  type WizardState,
} from './wizard.ts';
import { InfoStep, PasswordStep, ProviderStep, TypeStep } from './WizardSteps.tsx';
import { folderNameFor } from '../storage/cloud/folders.ts';
import { StorageError } from '../storage/provider.ts';
import { providerFor } from '../storage/providers.ts';
import { providerInfo } from './providers.tsx';

/** Spec §8 (Vaults): the cloud folder of a new vault could not be made. */
const folderFailed = (name: string, err: unknown) =>
  err instanceof StorageError && err.code === 'unavailable'
    ? `${name} not connected. Please connect ${name} first.`
    : `Failed to create ${name} folder. Please try again.`;

export function CreateVaultWizard({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const qc = useQueryClient();
  const [step, setStep] = useState(1);
  const [state, setState] = useState<WizardState>(initialWizard);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const { limits } = useLimits();
  const vaults = useVaultList().data ?? [];
  // Spec §9: on the Free plan a type the user already has is not offered again.
  const unavailable: Partial<Record<VaultType, string>> = {};
  for (const t of ['files', 'secrets'] as const) {
    if (
      canCreateVault(vaults.length, limits.max_vaults) &&
      !canCreateVaultOfType(limits, vaults, t)
    )
      unavailable[t] = FREE_PLAN_ONE_OF_EACH;
  }

  const reset = () => {
    setStep(1);
    setState(initialWizard);
    setError(null);
  };
  const update = (patch: Partial<WizardState>) => {
    setState((s) => ({ ...s, ...patch }));
    setError(null);
  };

  const next = async () => {
    const problem = stepError(step, state) ?? (step === 2 ? unavailable[state.vaultType] : null);
    if (problem) return setError(problem);
    if (step === 1 && unavailable[state.vaultType]) {
      // The Free plan's other type is the one left: start the next step on it.
      const other = state.vaultType === 'files' ? 'secrets' : 'files';
      if (!unavailable[other]) setState((s) => withVaultType(s, other));
    }
    if (step < WIZARD_STEPS) return setStep(step + 1);
    setCreating(true);
    try {
      const id = crypto.randomUUID();
      const provider = state.provider ?? 'server';
      // A files vault on a cloud provider gets its folder there first (spec §7: the product
      // prefix, an underscore, the vault name); the vault records where it is.
      const storage = providerFor(provider);
      const storageFolder =
        state.vaultType === 'files' && storage.makeFolder
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
      setError(userMessage(err, messages.vaults.createFailed));
    } finally {
      setCreating(false);
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
      title="Create New Vault"
      description={
        <span className="flex items-center justify-between gap-4">
          <span>
            Step {step} of {WIZARD_STEPS}
          </span>
          <span>{percent}%</span>
        </span>
      }
      footer={
        <DialogFooter
          onCancel={() => {
            setError(null);
            setStep((s) => s - 1);
          }}
          cancelText="Back"
          cancelDisabled={step === 1 || creating}
          submit={step < WIZARD_STEPS ? 'Next' : 'Create Vault'}
          busyText="Creating..."
          busy={creating}
          form="create-vault-form"
        />
      }
    >
      <div
        role="progressbar"
        aria-label="Wizard progress"
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
      <form
        id="create-vault-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void next();
        }}
      >
        {step === 1 && <InfoStep state={state} update={update} invalid={error !== null} />}
        {step === 2 && (
          <TypeStep
            state={state}
            unavailable={unavailable}
            onType={(t) => {
              setState((s) => withVaultType(s, t));
              setError(null);
            }}
          />
        )}
        {step === 3 && <ProviderStep state={state} update={update} />}
        {step === 4 && <PasswordStep state={state} update={update} invalid={error !== null} />}
        {error && (
          <p role="alert" className="mt-4 text-sm font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
