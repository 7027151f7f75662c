// The four steps of the create-vault wizard, as plain controlled fields.
import { FolderLock, KeyRound } from 'lucide-react';
import type { VaultType } from '@sealvault/protocol';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { PROVIDERS, providerChoice, useProviderEnv } from './providers.tsx';
import type { WizardState } from './wizard.ts';

interface StepProps {
  state: WizardState;
  update: (patch: Partial<WizardState>) => void;
  invalid?: boolean;
}

const label = 'mb-1.5 block text-sm font-medium text-slate-800 dark:text-slate-200';
const choiceClass =
  'flex w-full items-start gap-3 rounded-xl border p-4 text-left transition focus-within:ring-2 focus-within:ring-indigo-500 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50 dark:has-[:checked]:border-indigo-400 dark:has-[:checked]:bg-indigo-950/50';

export function InfoStep({ state, update, invalid }: StepProps) {
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor="vault-name" className={label}>
          Vault name
        </label>
        <input
          id="vault-name"
          autoFocus
          required
          maxLength={100}
          value={state.name}
          aria-invalid={invalid && state.name.trim() === ''}
          onChange={(e) => update({ name: e.target.value })}
          className={inputClass}
          placeholder="e.g. Tax records"
        />
      </div>
      <div>
        <label htmlFor="vault-description" className={label}>
          Description{' '}
          <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
        </label>
        <textarea
          id="vault-description"
          maxLength={500}
          rows={3}
          value={state.description}
          onChange={(e) => update({ description: e.target.value })}
          className={`${inputClass} h-auto py-2`}
        />
        <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          The name and description are visible while the vault is locked. Everything inside is
          encrypted.
        </p>
      </div>
    </div>
  );
}

const types: { id: VaultType; title: string; text: string; icon: typeof FolderLock }[] = [
  {
    id: 'files',
    title: 'File vault',
    text: 'Documents, photos, videos and other files.',
    icon: FolderLock,
  },
  {
    id: 'secrets',
    title: 'Secrets vault',
    text: 'Site passwords, API keys and notes.',
    icon: KeyRound,
  },
];

export function TypeStep({
  state,
  onType,
  unavailable = {},
}: {
  state: WizardState;
  onType: (t: VaultType) => void;
  /** Types the plan does not allow now, with the reason shown under them. */
  unavailable?: Partial<Record<VaultType, string>>;
}) {
  return (
    <fieldset className="space-y-3">
      <legend className={label}>Vault type</legend>
      {types.map((t) => (
        <label
          key={t.id}
          className={`${choiceClass} border-slate-200 dark:border-slate-700 ${
            unavailable[t.id] ? 'cursor-not-allowed opacity-60' : 'cursor-pointer'
          }`}
        >
          <input
            type="radio"
            name="vault-type"
            value={t.id}
            checked={state.vaultType === t.id}
            disabled={unavailable[t.id] !== undefined}
            aria-describedby={unavailable[t.id] ? `vault-type-${t.id}-why` : undefined}
            onChange={() => onType(t.id)}
            className="mt-1 accent-indigo-600"
          />
          <t.icon
            aria-hidden="true"
            className="mt-0.5 size-5 text-indigo-600 dark:text-indigo-300"
          />
          <span>
            <span className="block font-semibold text-slate-900 dark:text-white">{t.title}</span>
            <span className="block text-sm text-slate-600 dark:text-slate-400">{t.text}</span>
            {unavailable[t.id] && (
              <span
                id={`vault-type-${t.id}-why`}
                className="mt-1 block text-sm font-medium text-amber-800 dark:text-amber-300"
              >
                {unavailable[t.id]}
              </span>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function ProviderStep({ state, update }: StepProps) {
  const env = useProviderEnv();
  return (
    <fieldset className="space-y-3">
      <legend className={label}>Storage provider</legend>
      <p className="-mt-1 text-xs text-slate-600 dark:text-slate-400">
        Only connected providers can be chosen.
      </p>
      {PROVIDERS.map((p) => {
        const choice = providerChoice(p.id, env, state.vaultType);
        const ids = `provider-${p.id}`;
        return (
          <label
            key={p.id}
            className={`${choiceClass} ${
              choice.selectable
                ? 'cursor-pointer border-slate-200 dark:border-slate-700'
                : 'cursor-not-allowed border-dashed border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/40'
            }`}
          >
            <input
              type="radio"
              name="provider"
              value={p.id}
              disabled={!choice.selectable}
              checked={choice.selectable && state.provider === p.id}
              onChange={() => update({ provider: p.id })}
              aria-labelledby={`${ids}-name`}
              aria-describedby={choice.selectable ? `${ids}-text` : `${ids}-reason ${ids}-text`}
              className="mt-1 accent-indigo-600"
            />
            <p.icon
              aria-hidden="true"
              className={`mt-0.5 size-5 shrink-0 ${
                choice.selectable
                  ? 'text-indigo-600 dark:text-indigo-300'
                  : 'text-slate-500 dark:text-slate-400'
              }`}
            />
            <span className="min-w-0">
              <span className="flex flex-wrap items-center gap-2">
                <span
                  id={`${ids}-name`}
                  className={`font-semibold ${
                    choice.selectable
                      ? 'text-slate-900 dark:text-white'
                      : 'text-slate-700 dark:text-slate-300'
                  }`}
                >
                  {p.name}
                </span>
                {!choice.selectable && (
                  <span
                    id={`${ids}-reason`}
                    className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                  >
                    {choice.reason}
                  </span>
                )}
              </span>
              <span id={`${ids}-text`} className="block text-sm text-slate-600 dark:text-slate-400">
                {p.description}
              </span>
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

export function PasswordStep({ state, update, invalid }: StepProps) {
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor="vault-password" className={label}>
          Vault password
        </label>
        <PasswordInput
          id="vault-password"
          autoFocus
          autoComplete="new-password"
          value={state.password}
          aria-invalid={invalid}
          onChange={(e) => update({ password: e.target.value })}
        />
        <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          At least 8 characters. It never leaves this device and cannot be recovered by us.
        </p>
      </div>
      <div>
        <label htmlFor="vault-password-confirm" className={label}>
          Confirm password
        </label>
        <PasswordInput
          id="vault-password-confirm"
          toggle={false}
          autoComplete="new-password"
          value={state.confirm}
          aria-invalid={invalid}
          onChange={(e) => update({ confirm: e.target.value })}
        />
      </div>
    </div>
  );
}
