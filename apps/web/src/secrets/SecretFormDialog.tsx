// The forms of docs/product.md §2: 'Add Secret' / 'Edit Secret' (site password) and 'Add Plain Text Secret',
// with the validation messages of docs/product.md §5 and the password generator (its options and
// the strength meter, issue 20), and the forms of the other item types of issue 20 (payment card,
// secure note, identity, SSH key, API key; itemForm.ts). A login also takes further websites, a
// TOTP key and custom fields. When another tab saved the same secret first, the newer version is
// loaded and the user's edit stays in the form.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { RefreshCw, Copy, SlidersHorizontal } from 'lucide-react';
import type { z } from 'zod';
import { messages, SecretConflictError, userMessage } from '@sealvault/protocol';
import { Modal } from '../components/Modal.tsx';
import { inputClass, PasswordInput } from '../components/PasswordInput.tsx';
import { buttonClass } from '../components/buttonStyles.ts';
import { DialogFooter } from '../components/DialogFooter.tsx';
import { Field, FormMessage } from '../components/Field.tsx';
import {
  GeneratorOptions,
  generateWith,
  generatorError,
  useGeneratorSettings,
} from './GeneratorOptions.tsx';
import {
  ApiKeyParts,
  CardParts,
  CustomFields,
  IdentityParts,
  MoreUrls,
  SshParts,
  TotpField,
} from './ItemFormParts.tsx';
import {
  dataFromValues,
  formSchema,
  KIND_NAMES,
  valuesOf,
  type FormKind,
  type FormValues,
} from './itemForm.ts';
import { isPlainText, type Secret, type SecretData } from './model.ts';
import { StrengthMeter } from './StrengthMeter.tsx';
import { i18n, msg, useTranslation } from '../i18n/i18n.ts';

export type SecretFormMode = { kind: FormKind; secret: Secret | null };

export function SecretFormDialog({
  mode,
  ...rest
}: {
  mode: SecretFormMode | null;
  onClose: () => void;
  onSave: (secret: Secret | null, fields: SecretData) => Promise<unknown>;
  onCopy: (label: string, value: string) => void;
  /** The secret as the list has it now (refreshed after a conflict). */
  latest?: Secret | null;
}) {
  // A new form (values, errors, revision) each time the dialog opens for something.
  const [opened, setOpened] = useState<{ mode: SecretFormMode | null; n: number }>({
    mode,
    n: 0,
  });
  if (mode !== opened.mode) setOpened({ mode, n: opened.n + 1 });
  if (!mode) return null;
  return <SecretForm key={opened.n} mode={mode} {...rest} />;
}

function formTitle(mode: SecretFormMode): string {
  const kind = i18n.t(KIND_NAMES[mode.kind]);
  if (mode.kind === 'site') return mode.secret ? i18n.t('Edit Secret') : i18n.t('Add Secret');
  if (mode.kind === 'plain') {
    return mode.secret ? i18n.t('Edit Plain Text Secret') : i18n.t('Add Plain Text Secret');
  }
  return mode.secret ? i18n.t('Edit {{kind}}', { kind }) : i18n.t('Add {{kind}}', { kind });
}

function submitText(mode: SecretFormMode): string {
  if (mode.secret) return i18n.t('Save changes');
  if (mode.kind === 'site') return i18n.t('Add Secret');
  return i18n.t('Add {{kind}}', { kind: i18n.t(KIND_NAMES[mode.kind]) });
}

/** A validation message of ours (or the protocol's), in the reader's language. */
const translated = (message: string | undefined) => message && i18n.t(message);

function SecretForm({
  mode,
  onClose,
  onSave,
  onCopy,
  latest = null,
}: {
  mode: SecretFormMode;
  onClose: () => void;
  onSave: (secret: Secret | null, fields: SecretData) => Promise<unknown>;
  onCopy: (label: string, value: string) => void;
  latest?: Secret | null;
}) {
  const { t } = useTranslation();
  const { kind } = mode;
  const plain = kind === 'plain';
  const [notice, setNotice] = useState<string | null>(null);
  // The revision an edit is based on: the secret's, or the newer one after a conflict.
  const [baseRevision, setBaseRevision] = useState<number | null>(mode.secret?.revision ?? null);
  const [generator, setGenerator] = useGeneratorSettings();
  const [showOptions, setShowOptions] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setError,
    control,
    formState: { errors, isSubmitting: busy },
  } = useForm<FormValues>({
    // Raw values: what is trimmed, and what each type keeps, is decided on saving (itemForm.ts).
    resolver: zodResolver(formSchema(kind) as z.ZodType<FormValues, FormValues>, undefined, {
      raw: true,
    }) as unknown as Resolver<FormValues>,
    defaultValues: valuesOf(mode.secret),
  });
  const password = useWatch({ control, name: 'password' });
  const currentTitle = useWatch({ control, name: 'title' });

  const title = formTitle(mode);

  const generate = async () => {
    if (generatorError(generator)) {
      setShowOptions(true);
      return;
    }
    setValue('password', await generateWith(generator), {
      shouldDirty: true,
      shouldValidate: true,
    });
  };

  const submit = async (values: FormValues) => {
    const data = dataFromValues(kind, values);
    try {
      await onSave(
        mode.secret && { ...mode.secret, revision: baseRevision ?? mode.secret.revision },
        data,
      );
      onClose();
    } catch (err) {
      if (err instanceof SecretConflictError) {
        setNotice(
          msg(
            'This secret was changed in another tab or on another device. Your edit is still here: save again to replace the newer version, or take the newer version instead.',
          ),
        );
        // Continue from the newer revision so saving again is a deliberate overwrite.
        setBaseRevision(err.current.revision);
      } else {
        setError('root', {
          message: userMessage(
            err,
            mode.secret ? messages.secrets.updateFailed : messages.secrets.createFailed,
          ),
        });
      }
    }
  };

  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      closable={!busy}
      title={title}
      footer={
        <DialogFooter
          onCancel={onClose}
          submit={submitText(mode)}
          busyText={t('Saving...')}
          busy={busy}
          form="secret-form"
        />
      }
    >
      <form
        id="secret-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => void handleSubmit(submit)(e)}
      >
        {notice && (
          <div
            role="status"
            className="space-y-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200"
          >
            <p>{t(notice)}</p>
            {latest && baseRevision !== null && latest.revision >= baseRevision && (
              <NewerVersion
                latest={latest}
                onUse={() => {
                  reset(valuesOf(latest));
                  setBaseRevision(latest.revision);
                  setNotice(null);
                }}
              />
            )}
          </div>
        )}
        {errors.root && <FormMessage kind="error">{translated(errors.root.message)}</FormMessage>}
        <Field label={t('Title')} error={translated(errors.title?.message)}>
          <input autoFocus className={inputClass} {...register('title')} />
        </Field>
        {kind === 'site' && (
          <>
            <Field label={t('Username')} error={translated(errors.username?.message)}>
              <input autoComplete="off" className={inputClass} {...register('username')} />
            </Field>
            <div>
              <Field
                label={t('Password')}
                error={translated(errors.password?.message)}
                trailing={
                  <>
                    <button
                      type="button"
                      onClick={() => void generate()}
                      className={buttonClass('secondary', 'md', '!h-11')}
                    >
                      <RefreshCw aria-hidden="true" className="size-4" /> {t('Generate')}
                    </button>
                    <button
                      type="button"
                      onClick={() => setShowOptions((v) => !v)}
                      aria-expanded={showOptions}
                      aria-label={t('Password generator options')}
                      className={buttonClass('secondary', 'md', '!h-11 !px-3')}
                    >
                      <SlidersHorizontal aria-hidden="true" className="size-4" />
                    </button>
                    <button
                      type="button"
                      onClick={() => password && onCopy(t('Password'), password)}
                      disabled={!password}
                      aria-label={t('Copy password')}
                      className={buttonClass('secondary', 'md', '!h-11 !px-3')}
                    >
                      <Copy aria-hidden="true" className="size-4" />
                    </button>
                  </>
                }
              >
                <PasswordInput autoComplete="new-password" {...register('password')} />
              </Field>
              <StrengthMeter password={password} />
            </div>
            {showOptions && <GeneratorOptions value={generator} onChange={setGenerator} />}
            <Field label={t('Website')} error={translated(errors.url?.message)}>
              <input
                type="url"
                inputMode="url"
                placeholder="https://"
                className={inputClass}
                {...register('url')}
              />
            </Field>
            <MoreUrls control={control} register={register} errors={errors} />
            <TotpField register={register} errors={errors} setValue={setValue} />
          </>
        )}
        {kind === 'card' && <CardParts register={register} errors={errors} />}
        {kind === 'identity' && <IdentityParts register={register} errors={errors} />}
        {kind === 'ssh' && (
          <SshParts register={register} errors={errors} setValue={setValue} title={currentTitle} />
        )}
        {kind === 'apikey' && <ApiKeyParts register={register} errors={errors} />}
        <Field label={plain ? t('Content') : t('Notes')} error={translated(errors.notes?.message)}>
          <textarea
            rows={plain || kind === 'note' ? 8 : 3}
            className={`${inputClass} h-auto py-2`}
            {...register('notes')}
          />
        </Field>
        {!plain && <CustomFields control={control} register={register} errors={errors} />}
      </form>
    </Modal>
  );
}

function NewerVersion({ latest, onUse }: { latest: Secret; onUse: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const rows: [string, string][] = [
    [t('Title'), latest.title],
    [t('Username'), latest.username],
    [t('Website'), latest.url],
    [isPlainText(latest) ? t('Content') : t('Notes'), latest.notes],
  ];
  return (
    <div className="rounded-md border border-amber-200 bg-white/60 p-2 dark:border-amber-800 dark:bg-slate-900/60">
      <p className="font-medium">{t('Newer version')}</p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
        {rows
          .filter(([, v]) => v !== '')
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-amber-800 dark:text-amber-300">{k}</dt>
              <dd className="break-all whitespace-pre-wrap">{v}</dd>
            </div>
          ))}
        {latest.password !== '' && (
          <div className="contents">
            <dt className="text-amber-800 dark:text-amber-300">{t('Password')}</dt>
            <dd className="flex items-center gap-2">
              <span className="font-mono break-all">
                {shown ? latest.password : '•'.repeat(Math.min(latest.password.length, 12))}
              </span>
              <button
                type="button"
                onClick={() => setShown((v) => !v)}
                aria-pressed={shown}
                className="font-semibold underline underline-offset-2"
              >
                {shown ? t('Hide newer password') : t('Show newer password')}
              </button>
            </dd>
          </div>
        )}
      </dl>
      <button
        type="button"
        onClick={onUse}
        className="mt-2 text-xs font-semibold underline underline-offset-2"
      >
        {t('Use the newer version')}
      </button>
    </div>
  );
}
