// The password generator's options in the site-password form (issue 20): a password (length,
// character sets, avoid look-alikes) or a passphrase from the bundled EFF word list, with the
// entropy of what it makes. Closed by default; the defaults are the spec's 16 characters.
import { useId, useState } from 'react';
import { inputClass } from '../components/PasswordInput.tsx';
import {
  DEFAULT_PASSPHRASE_OPTIONS,
  DEFAULT_PASSWORD_OPTIONS,
  generatePassphrase,
  generatePassword,
  PASSPHRASE_WORDS,
  passphraseEntropy,
  passphraseOptionsError,
  PASSWORD_LENGTH,
  passwordEntropy,
  passwordOptionsError,
  type PassphraseOptions,
  type PasswordOptions,
} from './tools/generator.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface GeneratorSettings {
  kind: 'password' | 'passphrase';
  password: PasswordOptions;
  passphrase: PassphraseOptions;
}

export const DEFAULT_GENERATOR: GeneratorSettings = {
  kind: 'password',
  password: { ...DEFAULT_PASSWORD_OPTIONS },
  passphrase: { ...DEFAULT_PASSPHRASE_OPTIONS },
};

/** Why the settings cannot generate (a text marked as ours), or null. */
export const generatorError = (s: GeneratorSettings): string | null =>
  s.kind === 'password' ? passwordOptionsError(s.password) : passphraseOptionsError(s.passphrase);

/** A password or passphrase as the settings ask; throws a RangeError for refused settings. */
export const generateWith = (s: GeneratorSettings): Promise<string> =>
  s.kind === 'password'
    ? Promise.resolve(generatePassword(s.password))
    : generatePassphrase(s.passphrase);

const checkbox = 'size-4 rounded border-slate-300 text-indigo-600 dark:border-slate-600';
const small = `${inputClass} !h-9 !w-20`;

export function GeneratorOptions({
  value,
  onChange,
}: {
  value: GeneratorSettings;
  onChange: (s: GeneratorSettings) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const error = generatorError(value);
  const bits = Math.round(
    value.kind === 'password'
      ? passwordEntropy(value.password)
      : passphraseEntropy(value.passphrase),
  );
  const setPw = (p: Partial<PasswordOptions>) =>
    onChange({ ...value, password: { ...value.password, ...p } });
  const setPp = (p: Partial<PassphraseOptions>) =>
    onChange({ ...value, passphrase: { ...value.passphrase, ...p } });
  const sets: [keyof PasswordOptions & ('upper' | 'lower' | 'digits' | 'symbols'), string][] = [
    ['upper', 'A-Z'],
    ['lower', 'a-z'],
    ['digits', '0-9'],
    ['symbols', '!@#$%^&*'],
  ];
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
      <legend className="px-1 text-xs font-medium text-slate-600 dark:text-slate-400">
        {t('Generator options')}
      </legend>
      <div className="flex gap-4" role="radiogroup" aria-label={t('Generate a')}>
        {(['password', 'passphrase'] as const).map((k) => (
          <label key={k} className="flex items-center gap-2 text-slate-800 dark:text-slate-200">
            <input
              type="radio"
              name={`${id}-kind`}
              checked={value.kind === k}
              onChange={() => onChange({ ...value, kind: k })}
            />
            {k === 'password' ? t('Random characters') : t('Passphrase')}
          </label>
        ))}
      </div>
      {value.kind === 'password' ? (
        <>
          <label className="flex items-center gap-3 text-slate-800 dark:text-slate-200">
            {t('Length')}
            <input
              type="number"
              min={PASSWORD_LENGTH.min}
              max={PASSWORD_LENGTH.max}
              value={Number.isNaN(value.password.length) ? '' : value.password.length}
              onChange={(e) => setPw({ length: e.target.valueAsNumber })}
              className={small}
            />
          </label>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {sets.map(([k, label]) => (
              <label key={k} className="flex items-center gap-2 text-slate-800 dark:text-slate-200">
                <input
                  type="checkbox"
                  className={checkbox}
                  checked={value.password[k]}
                  onChange={(e) => setPw({ [k]: e.target.checked })}
                />
                <span className="font-mono">{label}</span>
              </label>
            ))}
          </div>
          <label className="flex items-center gap-2 text-slate-800 dark:text-slate-200">
            <input
              type="checkbox"
              className={checkbox}
              checked={value.password.avoidLookAlikes}
              onChange={(e) => setPw({ avoidLookAlikes: e.target.checked })}
            />
            {t('Avoid look-alikes (I, l, O, 0, 1)')}
          </label>
        </>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <label className="flex items-center gap-3 text-slate-800 dark:text-slate-200">
              {t('Words')}
              <input
                type="number"
                min={PASSPHRASE_WORDS.min}
                max={PASSPHRASE_WORDS.max}
                value={Number.isNaN(value.passphrase.words) ? '' : value.passphrase.words}
                onChange={(e) => setPp({ words: e.target.valueAsNumber })}
                className={small}
              />
            </label>
            <label className="flex items-center gap-3 text-slate-800 dark:text-slate-200">
              {t('Separator')}
              <input
                maxLength={3}
                value={value.passphrase.separator}
                onChange={(e) => setPp({ separator: e.target.value })}
                className={`${small} !w-14 font-mono`}
              />
            </label>
          </div>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            <label className="flex items-center gap-2 text-slate-800 dark:text-slate-200">
              <input
                type="checkbox"
                className={checkbox}
                checked={value.passphrase.capitalize}
                onChange={(e) => setPp({ capitalize: e.target.checked })}
              />
              {t('Capitalize')}
            </label>
            <label className="flex items-center gap-2 text-slate-800 dark:text-slate-200">
              <input
                type="checkbox"
                className={checkbox}
                checked={value.passphrase.number}
                onChange={(e) => setPp({ number: e.target.checked })}
              />
              {t('Add a number')}
            </label>
          </div>
        </>
      )}
      {error ? (
        <p role="alert" className="text-red-600 dark:text-red-400">
          {t(error)}
        </p>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {t('About {{bits}} bits of entropy.', { bits: formatNumber(bits) })}
        </p>
      )}
    </fieldset>
  );
}

/** The generator's settings for one form, kept while it is open. */
export function useGeneratorSettings() {
  return useState<GeneratorSettings>(DEFAULT_GENERATOR);
}
