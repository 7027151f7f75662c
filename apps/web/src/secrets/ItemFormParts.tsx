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

interface PartProps {
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
}

const removeButton = buttonClass('secondary', 'md', '!h-11 !px-3');
const addButton = buttonClass('secondary');

export function MoreUrls({
  control,
  register,
  errors,
}: PartProps & { control: Control<FormValues> }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'moreUrls' });
  return (
    <>
      {fields.map((f, i) => (
        <Field
          key={f.id}
          label={`Website ${i + 2}`}
          error={errors.moreUrls?.[i]?.value?.message}
          trailing={
            <button
              type="button"
              onClick={() => remove(i)}
              aria-label={`Remove website ${i + 2}`}
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
        <Plus aria-hidden="true" className="size-4" /> Add another website
      </button>
    </>
  );
}

export function TotpField({
  register,
  errors,
  setValue,
}: PartProps & { setValue: UseFormSetValue<FormValues> }) {
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
      label="Authenticator key (TOTP)"
      hint="A setup key or an otpauth:// link, or read a QR code image."
      error={errors.totp?.message ?? qrError ?? undefined}
      trailing={
        <>
          <button
            type="button"
            onClick={() => file.current?.click()}
            className={buttonClass('secondary', 'md', '!h-11')}
          >
            <QrCode aria-hidden="true" className="size-4" /> Read QR image
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
        toggleLabel="authenticator key"
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
  const live = useWatch({ control, name: 'fields' });
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 text-sm font-medium text-slate-800 dark:text-slate-200">
        Custom fields
      </legend>
      {fields.map((f, i) => (
        <div key={f.id} className="grid grid-cols-[1fr_1.4fr_auto] items-start gap-2">
          <div>
            <input
              aria-label={`Field ${i + 1} name`}
              placeholder="Name"
              aria-invalid={errors.fields?.[i]?.name ? true : undefined}
              className={inputClass}
              {...register(`fields.${i}.name`)}
            />
            {errors.fields?.[i]?.name && (
              <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
                {errors.fields[i].name.message}
              </p>
            )}
          </div>
          {(live[i]?.hidden ?? f.hidden) ? (
            <PasswordInput
              aria-label={`Field ${i + 1} value`}
              placeholder="Value"
              autoComplete="off"
              toggleLabel={`field ${i + 1}`}
              {...register(`fields.${i}.value`)}
            />
          ) : (
            <input
              aria-label={`Field ${i + 1} value`}
              placeholder="Value"
              autoComplete="off"
              className={inputClass}
              {...register(`fields.${i}.value`)}
            />
          )}
          <div className="flex items-center gap-2">
            <label className="flex h-11 items-center gap-1.5 text-xs text-slate-700 dark:text-slate-300">
              <input type="checkbox" {...register(`fields.${i}.hidden`)} />
              Hidden
            </label>
            <button
              type="button"
              onClick={() => remove(i)}
              aria-label={`Remove field ${i + 1}`}
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
          <Plus aria-hidden="true" className="size-4" /> Add text field
        </button>
        <button
          type="button"
          onClick={() => append({ name: '', value: '', hidden: true })}
          className={addButton}
        >
          <Plus aria-hidden="true" className="size-4" /> Add hidden field
        </button>
      </div>
    </fieldset>
  );
}

export function CardParts({ register, errors }: PartProps) {
  const e = errors.card;
  return (
    <>
      <Field label="Cardholder name" error={e?.cardholderName?.message}>
        <input autoComplete="off" className={inputClass} {...register('card.cardholderName')} />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Card number" error={e?.number?.message}>
          <PasswordInput
            inputMode="numeric"
            autoComplete="off"
            toggleLabel="card number"
            {...register('card.number')}
          />
        </Field>
        <Field label="Brand" error={e?.brand?.message}>
          <input placeholder="Visa" className={inputClass} {...register('card.brand')} />
        </Field>
      </div>
      <div className="grid grid-cols-3 gap-3">
        <Field label="Expiry month" error={e?.expMonth?.message}>
          <input
            inputMode="numeric"
            placeholder="MM"
            className={inputClass}
            {...register('card.expMonth')}
          />
        </Field>
        <Field label="Expiry year" error={e?.expYear?.message}>
          <input
            inputMode="numeric"
            placeholder="YYYY"
            className={inputClass}
            {...register('card.expYear')}
          />
        </Field>
        <Field label="Security code" error={e?.code?.message}>
          <PasswordInput
            inputMode="numeric"
            autoComplete="off"
            toggleLabel="security code"
            {...register('card.code')}
          />
        </Field>
      </div>
    </>
  );
}

/** The identity's fields, labelled; the sensitive ones are masked while typed. */
export const IDENTITY_LABELS: [keyof IdentityFields, string, boolean][] = [
  ['title', 'Honorific', false],
  ['firstName', 'First name', false],
  ['middleName', 'Middle name', false],
  ['lastName', 'Last name', false],
  ['username', 'Identity username', false],
  ['company', 'Company', false],
  ['email', 'E-mail', false],
  ['phone', 'Phone', false],
  ['address1', 'Address line 1', false],
  ['address2', 'Address line 2', false],
  ['address3', 'Address line 3', false],
  ['city', 'City', false],
  ['state', 'State or region', false],
  ['postalCode', 'Postal code', false],
  ['country', 'Country', false],
  ['ssn', 'National ID / SSN', true],
  ['passportNumber', 'Passport number', true],
  ['licenseNumber', 'Licence number', true],
];

export function IdentityParts({ register, errors }: PartProps) {
  return (
    <div className="grid grid-cols-2 gap-3">
      {IDENTITY_LABELS.map(([k, label, hidden]) => (
        <Field key={k} label={label} error={errors.identity?.[k]?.message}>
          {hidden ? (
            <PasswordInput
              autoComplete="off"
              toggleLabel={label.toLowerCase()}
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
      setProblem('This browser cannot generate Ed25519 keys. Paste a key made with ssh-keygen.');
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
          <KeyRound aria-hidden="true" className="size-4" /> Generate Ed25519 key pair
        </button>
        {problem && (
          <p role="alert" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
            {problem}
          </p>
        )}
      </div>
      <Field
        label="Private key"
        hint="Paste an OpenSSH private key, or generate one."
        error={errors.ssh?.privateKey?.message}
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
      <Field label="Public key" error={errors.ssh?.publicKey?.message}>
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
      <Field label="Fingerprint">
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
  return (
    <>
      <Field label="Key" error={errors.apikey?.key?.message}>
        <PasswordInput
          autoComplete="off"
          spellCheck={false}
          toggleLabel="key"
          {...register('apikey.key')}
        />
      </Field>
      <Field label="Key username or ID" error={errors.apikey?.username?.message}>
        <input autoComplete="off" className={inputClass} {...register('apikey.username')} />
      </Field>
      <Field label="Website" error={errors.url?.message}>
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
