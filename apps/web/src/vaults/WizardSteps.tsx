// The four steps of the create-vault wizard: fields of the wizard's one form (react-hook-form,
// through its context), each with its own error.
import { FolderLock, KeyRound } from 'lucide-react';
import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { VaultType } from '@sealvault/protocol';
import { Field, labelClass as label } from '../components/Field.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { VaultPasswordStrength } from '../secrets/StrengthMeter.tsx';
import { PROVIDERS, providerChoice, providerDescription, useProviderEnv } from './providers.tsx';
import type { WizardState } from './wizard.ts';

const useWizardForm = () => useFormContext<WizardState>();

/** The error of a group of radios, which each radio's description points at. */
function GroupError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} role="alert" className="text-sm text-red-600 dark:text-red-400">
      {error}
    </p>
  ) : null;
}
const choiceClass =
  'flex w-full items-start gap-3 rounded-xl border p-4 text-left transition focus-within:ring-2 focus-within:ring-indigo-500 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50 dark:has-[:checked]:border-indigo-400 dark:has-[:checked]:bg-indigo-950/50';

export function InfoStep() {
  const {
    register,
    formState: { errors },
  } = useWizardForm();
  return (
    <div className="space-y-4">
      <Field label="Vault name" error={errors.name?.message}>
        <input
          autoFocus
          maxLength={100}
          className={inputClass}
          placeholder="e.g. Tax records"
          {...register('name')}
        />
      </Field>
      <Field
        label={
          <>
            Description{' '}
            <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
          </>
        }
        hint="The name and description are visible while the vault is locked. Everything inside is encrypted."
      >
        <textarea
          maxLength={500}
          rows={3}
          className={`${inputClass} h-auto py-2`}
          {...register('description')}
        />
      </Field>
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
  unavailable = {},
}: {
  /** Types the plan does not allow now, with the reason shown under them. */
  unavailable?: Partial<Record<VaultType, string>>;
}) {
  const {
    register,
    setValue,
    formState: { errors },
  } = useWizardForm();
  const errorId = useId();
  const error = errors.vaultType?.message;
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
            value={t.id}
            disabled={unavailable[t.id] !== undefined}
            aria-describedby={
              [unavailable[t.id] ? `vault-type-${t.id}-why` : '', error ? errorId : '']
                .filter(Boolean)
                .join(' ') || undefined
            }
            {...register('vaultType', {
              // Spec §2, step 3: changing the type clears the chosen provider.
              onChange: () => setValue('provider', null),
            })}
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
      <GroupError id={errorId} error={error} />
    </fieldset>
  );
}

export function ProviderStep() {
  const {
    register,
    control,
    formState: { errors },
  } = useWizardForm();
  const vaultType = useWatch({ control, name: 'vaultType' });
  const env = useProviderEnv();
  const errorId = useId();
  const error = errors.provider?.message;
  return (
    <fieldset className="space-y-3">
      <legend className={label}>Storage provider</legend>
      <p className="-mt-1 text-xs text-slate-600 dark:text-slate-400">
        Only connected providers can be chosen.{' '}
        {/* A new tab, so this wizard keeps what was typed; a connection made there shows here. */}
        <a
          href="/dashboard?view=settings#settings-storage"
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300"
        >
          Connect a provider in Settings → Cloud Storage
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
      {PROVIDERS.map((p) => {
        const choice = providerChoice(p.id, env, vaultType);
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
              value={p.id}
              disabled={!choice.selectable}
              aria-labelledby={`${ids}-name`}
              aria-describedby={[
                choice.selectable ? '' : `${ids}-reason`,
                `${ids}-text`,
                error ? errorId : '',
              ]
                .filter(Boolean)
                .join(' ')}
              {...register('provider')}
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
                {providerDescription(p.id, vaultType)}
              </span>
            </span>
          </label>
        );
      })}
      <GroupError id={errorId} error={error} />
    </fieldset>
  );
}

export function PasswordStep() {
  const {
    register,
    control,
    formState: { errors },
  } = useWizardForm();
  const password = useWatch({ control, name: 'password' });
  return (
    <div className="space-y-4">
      <Field
        label="Vault password"
        error={errors.password?.message}
        hint="At least 8 characters. It never leaves this device and cannot be recovered by us."
      >
        <PasswordInput autoFocus autoComplete="new-password" {...register('password')} />
      </Field>
      <VaultPasswordStrength password={password} />
      <Field label="Confirm password" error={errors.confirm?.message}>
        <PasswordInput toggle={false} autoComplete="new-password" {...register('confirm')} />
      </Field>
    </div>
  );
}
