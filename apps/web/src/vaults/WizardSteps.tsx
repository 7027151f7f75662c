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
import { msg, useTranslation } from '../i18n/i18n.ts';

const useWizardForm = () => useFormContext<WizardState>();

/** The error of a group of radios, which each radio's description points at (English: shown translated). */
function GroupError({ id, error }: { id: string; error: string | undefined }) {
  const { t } = useTranslation();
  return error ? (
    <p id={id} role="alert" className="text-sm text-red-600 dark:text-red-400">
      {t(error)}
    </p>
  ) : null;
}
const choiceClass =
  'flex w-full items-start gap-3 rounded-xl border p-4 text-left transition focus-within:ring-2 focus-within:ring-indigo-500 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50 dark:has-[:checked]:border-indigo-400 dark:has-[:checked]:bg-indigo-950/50';

export function InfoStep() {
  const { t } = useTranslation();
  const {
    register,
    formState: { errors },
  } = useWizardForm();
  return (
    <div className="space-y-4">
      <Field label={t('Vault name')} error={errors.name?.message && t(errors.name.message)}>
        <input
          autoFocus
          maxLength={100}
          className={inputClass}
          placeholder={t('e.g. Tax records')}
          {...register('name')}
        />
      </Field>
      <Field
        label={
          <>
            {t('Description')}{' '}
            <span className="font-normal text-slate-500 dark:text-slate-400">
              {t('(optional)')}
            </span>
          </>
        }
        hint={t(
          'The name and description are visible while the vault is locked. Everything inside is encrypted.',
        )}
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
    title: msg('File vault'),
    text: msg('Documents, photos, videos and other files.'),
    icon: FolderLock,
  },
  {
    id: 'secrets',
    title: msg('Secrets vault'),
    text: msg('Site passwords, API keys and notes.'),
    icon: KeyRound,
  },
];

export function TypeStep({
  unavailable = {},
}: {
  /** Types the plan does not allow now, with the reason shown under them (English: shown translated). */
  unavailable?: Partial<Record<VaultType, string>>;
}) {
  const { t } = useTranslation();
  const {
    register,
    setValue,
    formState: { errors },
  } = useWizardForm();
  const errorId = useId();
  const error = errors.vaultType?.message;
  return (
    <fieldset className="space-y-3">
      <legend className={label}>{t('Vault type')}</legend>
      {types.map((type) => {
        const why = unavailable[type.id];
        return (
          <label
            key={type.id}
            className={`${choiceClass} border-slate-200 dark:border-slate-700 ${
              why ? 'cursor-not-allowed opacity-60' : 'cursor-pointer'
            }`}
          >
            <input
              type="radio"
              value={type.id}
              disabled={why !== undefined}
              aria-describedby={
                [why ? `vault-type-${type.id}-why` : '', error ? errorId : '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              {...register('vaultType', {
                // Spec §2, step 3: changing the type clears the chosen provider.
                onChange: () => setValue('provider', null),
              })}
              className="mt-1 accent-indigo-600"
            />
            <type.icon
              aria-hidden="true"
              className="mt-0.5 size-5 text-indigo-600 dark:text-indigo-300"
            />
            <span>
              <span className="block font-semibold text-slate-900 dark:text-white">
                {t(type.title)}
              </span>
              <span className="block text-sm text-slate-600 dark:text-slate-400">
                {t(type.text)}
              </span>
              {why && (
                <span
                  id={`vault-type-${type.id}-why`}
                  className="mt-1 block text-sm font-medium text-amber-800 dark:text-amber-300"
                >
                  {t(why)}
                </span>
              )}
            </span>
          </label>
        );
      })}
      <GroupError id={errorId} error={error} />
    </fieldset>
  );
}

export function ProviderStep() {
  const { t } = useTranslation();
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
      <legend className={label}>{t('Storage provider')}</legend>
      <p className="-mt-1 text-xs text-slate-600 dark:text-slate-400">
        {t('Only connected providers can be chosen.')}{' '}
        {/* A new tab, so this wizard keeps what was typed; a connection made there shows here. */}
        <a
          href="/dashboard?view=settings#settings-storage"
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300"
        >
          {t('Connect a provider in Settings → Cloud Storage')}
          <span className="sr-only"> {t('(opens in a new tab)')}</span>
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
                  {t(p.name)}
                </span>
                {!choice.selectable && (
                  <span
                    id={`${ids}-reason`}
                    className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
                  >
                    {t(choice.reason)}
                  </span>
                )}
              </span>
              <span id={`${ids}-text`} className="block text-sm text-slate-600 dark:text-slate-400">
                {t(providerDescription(p.id, vaultType))}
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
  const { t } = useTranslation();
  const {
    register,
    control,
    formState: { errors },
  } = useWizardForm();
  const password = useWatch({ control, name: 'password' });
  return (
    <div className="space-y-4">
      <Field
        label={t('Vault password')}
        error={errors.password?.message && t(errors.password.message)}
        hint={t(
          'At least 8 characters. It never leaves this device and cannot be recovered by us.',
        )}
      >
        <PasswordInput autoFocus autoComplete="new-password" {...register('password')} />
      </Field>
      <VaultPasswordStrength password={password} />
      <Field
        label={t('Confirm password')}
        error={errors.confirm?.message && t(errors.confirm.message)}
      >
        <PasswordInput toggle={false} autoComplete="new-password" {...register('confirm')} />
      </Field>
    </div>
  );
}
