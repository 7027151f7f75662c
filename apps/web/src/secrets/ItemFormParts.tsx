// The parts of the add/edit form beyond the spec's fields (issue 20): a login's further websites
// and TOTP (typed, pasted or read from a QR image), custom fields (text or hidden), and the fields
// of a payment card, an identity, an SSH key (generated or pasted) and an API key.
import { KeyRound, Plus, QrCode, X } from 'lucide-react';
import { useRef, useState } from 'react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { Field } from '../components/Field.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import type { FormValues } from './itemForm.ts';
import { generateEd25519, readOpenSshKey } from './sshKey.ts';
import { parseTotp, readQrImage } from './tools/totp.ts';
import type { IdentityFields } from './transfer/model.ts';
import { currentLanguage, i18n, msg, useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

interface PartProps {
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
}

/** A validation message of ours, in the reader's language. */
const translated = (message: string | undefined) => message && i18n.t(message);
/** A label inside a sentence ('Show card number'): English lowers it, German keeps its nouns. */
const inSentence = (label: string) => (currentLanguage() === 'en' ? label.toLowerCase() : label);

const removeButton = buttonClass('secondary', 'md', '!h-11 !px-3');
const addButton = buttonClass('secondary');

export function MoreUrls({
  control,
  register,
  errors,
}: PartProps & { control: Control<FormValues> }) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'moreUrls' });
  return (
    <>
      {fields.map((f, i) => (
        <Field
          key={f.id}
          label={t('Website {{n}}', { n: formatNumber(i + 2) })}
          error={translated(errors.moreUrls?.[i]?.value?.message)}
          trailing={
            <button
              type="button"
              onClick={() => remove(i)}
              aria-label={t('Remove website {{n}}', { n: formatNumber(i + 2) })}
              className={removeButton}
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          }
        >
          <input
            type="url"
            inputMode="url"
            placeholder="https://"
            className={inputClass}
            {...register(`moreUrls.${i}.value`)}
          />
        </Field>
      ))}
      <button type="button" onClick={() => append({ value: '' })} className={addButton}>
        <Plus aria-hidden="true" className="size-4" /> {t('Add another website')}
      </button>
    </>
  );
}

export function TotpField({
  register,
  errors,
  setValue,
}: PartProps & { setValue: UseFormSetValue<FormValues> }) {
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);
  const [qrError, setQrError] = useState<string | null>(null);
  const scan = async (f: File) => {
    setQrError(null);
    try {
      const text = await readQrImage(f);
      const parsed = parseTotp(text);
      if (parsed.uri === undefined) {
        setQrError(parsed.error);
        return;
      }
      setValue('totp', parsed.uri, { shouldDirty: true, shouldValidate: true });
    } catch (err) {
      setQrError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <Field
      label={t('Authenticator key (TOTP)')}
      hint={t('A setup key or an otpauth:// link, or read a QR code image.')}
      error={translated(errors.totp?.message ?? qrError ?? undefined)}
      trailing={
        <>
          <button
            type="button"
            onClick={() => file.current?.click()}
            className={buttonClass('secondary', 'md', '!h-11')}
          >
            <QrCode aria-hidden="true" className="size-4" /> {t('Read QR image')}
          </button>
          <input
            ref={file}
            type="file"
            accept="image/*"
            hidden
            data-testid="totp-qr-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void scan(f);
            }}
          />
        </>
      }
    >
      <PasswordInput
        autoComplete="off"
        spellCheck={false}
        toggleLabel={inSentence(t('Authenticator key'))}
        {...register('totp')}
      />
    </Field>
  );
}

export function CustomFields({
  control,
  register,
  errors,
}: PartProps & { control: Control<FormValues> }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'fields' });
  const { t } = useTranslation();
  const live = useWatch({ control, name: 'fields' });
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 text-sm font-medium text-slate-800 dark:text-slate-200">
        {t('Custom fields')}
      </legend>
      {fields.map((f, i) => (
        <div key={f.id} className="grid grid-cols-[1fr_1.4fr_auto] items-start gap-2">
          <div>
            <input
              aria-label={t('Field {{n}} name', { n: formatNumber(i + 1) })}
              placeholder={t('Name')}
              aria-invalid={errors.fields?.[i]?.name ? true : undefined}
              className={inputClass}
              {...register(`fields.${i}.name`)}
            />
            {errors.fields?.[i]?.name && (
              <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
                {translated(errors.fields[i].name.message)}
              </p>
            )}
          </div>
          {(live[i]?.hidden ?? f.hidden) ? (
            <PasswordInput
              aria-label={t('Field {{n}} value', { n: formatNumber(i + 1) })}
              placeholder={t('Value')}
              autoComplete="off"
              toggleLabel={t('field {{n}}', { n: formatNumber(i + 1) })}
              {...register(`fields.${i}.value`)}
            />
          ) : (
            <input
              aria-label={t('Field {{n}} value', { n: formatNumber(i + 1) })}
              placeholder={t('Value')}
              autoComplete="off"
              className={inputClass}
              {...register(`fields.${i}.value`)}
            />
          )}
          <div className="flex items-center gap-2">
            <label className="flex h-11 items-center gap-1.5 text-xs text-slate-700 dark:text-slate-300">
              <input type="checkbox" {...register(`fields.${i}.hidden`)} />
              {t('Hidden')}
            </label>
            <button
              type="button"
              onClick={() => remove(i)}
              aria-label={t('Remove field {{n}}', { n: formatNumber(i + 1) })}
              className={removeButton}
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
        </div>
      ))}
      <div className="flex gap-2">
        <button
          type="button"
          onClick={() => append({ name: '', value: '', hidden: false })}
          className={addButton}
        >
          <Plus aria-hidden="true" className="size-4" /> {t('Add text field')}
        </button>
        <button
          type="button"
          onClick={() => append({ name: '', value: '', hidden: true })}
          className={addButton}
        >
          <Plus aria-hidden="true" className="size-4" /> {t('Add hidden field')}
        </button>
      </div>
    </fieldset>
  );
}

export function CardParts({ register, errors }: PartProps) {
  const { t } = useTranslation();
  const e = errors.card;
  return (
    <>
      <Field label={t('Cardholder name')} error={translated(e?.cardholderName?.message)}>
        <input autoComplete="off" className={inputClass} {...register('card.cardholderName')} />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label={t('Card number')} error={translated(e?.number?.message)}>
          <PasswordInput
            inputMode="numeric"
            autoComplete="off"
            toggleLabel={inSentence(t('Card number'))}
            {...register('card.number')}
          />
        </Field>
        <Field label={t('Brand')} error={translated(e?.brand?.message)}>
          <input placeholder="Visa" className={inputClass} {...register('card.brand')} />
        </Field>
      </div>
      <div className="grid grid-cols-3 gap-3">
        <Field label={t('Expiry month')} error={translated(e?.expMonth?.message)}>
          <input
            inputMode="numeric"
            placeholder={t('MM')}
            className={inputClass}
            {...register('card.expMonth')}
          />
        </Field>
        <Field label={t('Expiry year')} error={translated(e?.expYear?.message)}>
          <input
            inputMode="numeric"
            placeholder={t('YYYY')}
            className={inputClass}
            {...register('card.expYear')}
          />
        </Field>
        <Field label={t('Security code')} error={translated(e?.code?.message)}>
          <PasswordInput
            inputMode="numeric"
            autoComplete="off"
            toggleLabel={inSentence(t('Security code'))}
            {...register('card.code')}
          />
        </Field>
      </div>
    </>
  );
}

/** The identity's fields, labelled; the sensitive ones are masked while typed. */
export const IDENTITY_LABELS: [keyof IdentityFields, string, boolean][] = [
  ['title', msg('Honorific'), false],
  ['firstName', msg('First name'), false],
  ['middleName', msg('Middle name'), false],
  ['lastName', msg('Last name'), false],
  ['username', msg('Identity username'), false],
  ['company', msg('Company'), false],
  ['email', msg('E-mail'), false],
  ['phone', msg('Phone'), false],
  ['address1', msg('Address line 1'), false],
  ['address2', msg('Address line 2'), false],
  ['address3', msg('Address line 3'), false],
  ['city', msg('City'), false],
  ['state', msg('State or region'), false],
  ['postalCode', msg('Postal code'), false],
  ['country', msg('Country'), false],
  ['ssn', msg('National ID / SSN'), true],
  ['passportNumber', msg('Passport number'), true],
  ['licenseNumber', msg('Licence number'), true],
];

export function IdentityParts({ register, errors }: PartProps) {
  const { t } = useTranslation();
  return (
    <div className="grid grid-cols-2 gap-3">
      {IDENTITY_LABELS.map(([k, label, hidden]) => (
        <Field key={k} label={t(label)} error={translated(errors.identity?.[k]?.message)}>
          {hidden ? (
            <PasswordInput
              autoComplete="off"
              toggleLabel={inSentence(t(label))}
              {...register(`identity.${k}`)}
            />
          ) : (
            <input autoComplete="off" className={inputClass} {...register(`identity.${k}`)} />
          )}
        </Field>
      ))}
    </div>
  );
}

export function SshParts({
  register,
  errors,
  setValue,
  title,
}: PartProps & { setValue: UseFormSetValue<FormValues>; title: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const put = (k: { privateKey: string; publicKey: string; fingerprint: string }) => {
    const opts = { shouldDirty: true, shouldValidate: true } as const;
    setValue('ssh.privateKey', k.privateKey, opts);
    setValue('ssh.publicKey', k.publicKey, opts);
    setValue('ssh.fingerprint', k.fingerprint, opts);
  };
  const generate = async () => {
    setBusy(true);
    setProblem(null);
    try {
      put(await generateEd25519(title.trim()));
    } catch {
      setProblem(
        msg('This browser cannot generate Ed25519 keys. Paste a key made with ssh-keygen.'),
      );
    } finally {
      setBusy(false);
    }
  };
  // A pasted key fills in its public key and fingerprint.
  const read = async (text: string, from: 'privateKey' | 'publicKey') => {
    setProblem(null);
    if (text.trim() === '') return;
    try {
      const k = await readOpenSshKey(text);
      const opts = { shouldDirty: true, shouldValidate: true } as const;
      if (from === 'privateKey' || k.privateKey === '') {
        setValue('ssh.publicKey', k.publicKey, opts);
      }
      setValue('ssh.fingerprint', k.fingerprint, opts);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };
  const mono = `${inputClass} h-auto py-2 font-mono text-xs`;
  return (
    <>
      <div>
        <button
          type="button"
          disabled={busy}
          onClick={() => void generate()}
          className={buttonClass('secondary')}
        >
          <KeyRound aria-hidden="true" className="size-4" /> {t('Generate Ed25519 key pair')}
        </button>
        {problem && (
          <p role="alert" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
            {t(problem)}
          </p>
        )}
      </div>
      <Field
        label={t('Private key')}
        hint={t('Paste an OpenSSH private key, or generate one.')}
        error={translated(errors.ssh?.privateKey?.message)}
      >
        <textarea
          rows={4}
          spellCheck={false}
          autoComplete="off"
          placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
          className={mono}
          {...register('ssh.privateKey', {
            onBlur: (e: React.FocusEvent<HTMLTextAreaElement>) =>
              void read(e.target.value, 'privateKey'),
          })}
        />
      </Field>
      <Field label={t('Public key')} error={translated(errors.ssh?.publicKey?.message)}>
        <textarea
          rows={2}
          spellCheck={false}
          autoComplete="off"
          placeholder="ssh-ed25519 AAAA..."
          className={mono}
          {...register('ssh.publicKey', {
            onBlur: (e: React.FocusEvent<HTMLTextAreaElement>) =>
              void read(e.target.value, 'publicKey'),
          })}
        />
      </Field>
      <Field label={t('Fingerprint')}>
        <input
          readOnly
          className={`${inputClass} font-mono text-xs`}
          {...register('ssh.fingerprint')}
        />
      </Field>
    </>
  );
}

export function ApiKeyParts({ register, errors }: PartProps) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t('Key')} error={translated(errors.apikey?.key?.message)}>
        <PasswordInput
          autoComplete="off"
          spellCheck={false}
          toggleLabel={inSentence(t('Key'))}
          {...register('apikey.key')}
        />
      </Field>
      <Field label={t('Key username or ID')} error={translated(errors.apikey?.username?.message)}>
        <input autoComplete="off" className={inputClass} {...register('apikey.username')} />
      </Field>
      <Field label={t('Website')} error={translated(errors.url?.message)}>
        <input
          type="url"
          inputMode="url"
          placeholder="https://"
          className={inputClass}
          {...register('url')}
        />
      </Field>
    </>
  );
}
