// "Move to another provider" (issue 27): the providers this browser can reach, whether to delete the
// old copies (default yes, with what it means), then the move with its progress (bytes, files,
// speed, time left, the file being copied), a Cancel that leaves the vault as it was, and a warning
// when the page is closed meanwhile. A move started before (here or on another device) is offered
// to continue or to cancel. The copying is engine.ts.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Loader2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import {
  formatBytes,
  movesApi,
  userMessage,
  type ProviderType,
  type Vault,
} from '@sealvault/protocol';
import { Modal } from '../../components/Modal.tsx';
import { Progress } from '../../components/Progress.tsx';
import { buttonClass } from '../../components/buttonStyles.ts';
import { useLeaveGuard } from '../../components/useLeaveGuard.ts';
import { filesKey, type FilesList } from '../../files/useFiles.ts';
import { secretsKey } from '../../secrets/useSecrets.ts';
import {
  PROVIDERS,
  ProviderIcon,
  connectionLabel,
  providerConnection,
  providerInfo,
  useProviderEnv,
} from '../providers.tsx';
import { formatDate, formatNumber } from '../../i18n/format.ts';
import { msg, useTranslation } from '../../i18n/i18n.ts';
import { vaultKeysQuery } from '../useVaults.ts';
import { cancelMove, moveVault } from './engine.ts';
import { MoveError } from './moveErrors.ts';
import type { MoveProgress } from './plan.ts';

/** A provider's name (English, marked): show it with t(). */
const nameOf = (type: ProviderType) => providerInfo(type).name;

/**
 * The dialog's texts. Those that name a provider have a text for "This browser" of their own
 * (the German needs its own words for it): `[text, local]`, chosen by `named`.
 */
export const moveDialogTexts = {
  title: msg('Move to another provider'),
  intro: msg(
    "The vault's encrypted files or secrets are copied as they are, checked on the new provider, and only then does the vault switch to it. Nothing is decrypted.",
  ),
  deleteOld: [
    msg('Delete the copies on {{provider}} after the move'),
    msg('Delete the copies on This browser after the move'),
  ],
  deleteOldHelp: msg(
    'Recommended. Left unchecked, the old copies stay where they are, still encrypted, but they are not updated any more.',
  ),
  serverSource: msg("SealVault's server deletes its copies once the vault has moved."),
  localWarning: msg(
    'The vault will then live in this browser only: clearing its site data or losing this device loses the vault. Moving it away from This browser later is how to rescue it.',
  ),
  resumed: [
    msg(
      'A move of this vault to {{provider}} was started {{when}} and did not finish. Continue it, or cancel it to remove what was copied.',
    ),
    msg(
      'A move of this vault to This browser was started {{when}} and did not finish. Continue it, or cancel it to remove what was copied.',
    ),
  ],
  done: [msg('The vault is now on {{provider}}.'), msg('The vault is now on This browser.')],
  moving: [msg('Moving to {{provider}}...'), msg('Moving to This browser...')],
  stillOn: [
    msg('{{message}} The vault is still on {{provider}}.'),
    msg('{{message}} The vault is still on This browser.'),
  ],
  from: [msg('Move from {{provider}} to'), msg('Move from This browser to')],
  failed: msg('The move failed.'),
} as const;

/** What a failure says: a text and its values (engine.ts's MoveError, or a message as it came). */
interface Failure {
  text: string;
  values?: Record<string, string>;
  /** Values that are texts themselves (a provider's name), translated when shown. */
  texts?: Record<string, string>;
}

type Phase =
  | { kind: 'choose' }
  | { kind: 'moving'; progress: MoveProgress | null; cancelling: boolean }
  | { kind: 'done'; target: ProviderType }
  | { kind: 'failed'; failure: Failure };

export function MoveVaultDialog({
  vault,
  open,
  onOpenChange,
}: {
  vault: Vault;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const env = useProviderEnv();
  const ids = useId();
  const [target, setTarget] = useState<ProviderType | null>(null);
  const [deleteSource, setDeleteSource] = useState(true);
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const abort = useRef<AbortController | null>(null);
  const recorded = useQuery({
    queryKey: ['vault-move', vault.id],
    queryFn: async () => (await movesApi.get(vault.id)).move,
    enabled: open,
  });
  const moving = phase.kind === 'moving';
  useLeaveGuard(moving);

  /** One of moveDialogTexts' `[text, local]` pairs, for `type`, with its values. */
  const named = (
    [text, local]: readonly [string, string],
    type: ProviderType,
    values: Record<string, string> = {},
  ) => (type === 'local' ? t(local, values) : t(text, { ...values, provider: t(nameOf(type)) }));
  const failureText = ({ text, values = {}, texts = {} }: Failure) =>
    t(text, {
      ...values,
      ...Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, t(v)])),
    });
  const choices = PROVIDERS.filter((p) => p.id !== vault.provider_type);
  const chosen = target ?? recorded.data?.target_provider ?? null;

  const close = (o: boolean) => {
    if (moving) return;
    onOpenChange(o);
    if (!o) {
      setPhase({ kind: 'choose' });
      setTarget(null);
    }
  };

  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: vaultKeysQuery.all }),
      qc.invalidateQueries({ queryKey: ['vault-move', vault.id] }),
    ]);

  // A file's name as the open file browser decrypted it, for the progress line and the texts.
  const fileName = (id: string) =>
    qc.getQueryData<FilesList>(filesKey(vault.id))?.files.find((f) => f.id === id)?.name;

  const start = async (to: ProviderType) => {
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'moving', progress: null, cancelling: false });
    try {
      await moveVault({
        vault,
        target: to,
        deleteSource,
        signal: controller.signal,
        nameOf: fileName,
        onProgress: (progress) => setPhase((p) => (p.kind === 'moving' ? { ...p, progress } : p)),
      });
      await Promise.all([
        refresh(),
        qc.invalidateQueries({ queryKey: filesKey(vault.id) }),
        qc.invalidateQueries({ queryKey: secretsKey(vault.id) }),
      ]);
      setPhase({ kind: 'done', target: to });
    } catch (err) {
      if (controller.signal.aborted) {
        // Cancel: what was copied is removed; the vault stays where it was.
        await cancelMove(vault.id).catch(() => undefined);
        await refresh();
        setPhase({ kind: 'choose' });
        return;
      }
      await refresh();
      setPhase({
        kind: 'failed',
        failure:
          err instanceof MoveError
            ? { text: err.text, values: err.values, texts: err.texts }
            : { text: userMessage(err, moveDialogTexts.failed) },
      });
    }
  };

  const cancelRecorded = async () => {
    await cancelMove(vault.id).catch(() => undefined);
    await refresh();
    setTarget(null);
  };

  const progress = phase.kind === 'moving' ? phase.progress : null;
  const percent =
    progress && progress.bytes.total > 0
      ? Math.round((progress.bytes.done / progress.bytes.total) * 100)
      : 0;
  const currentName = (progress?.current && fileName(progress.current.id)) || undefined;
  /** "Copying "name": 2.0 MB of 5.0 MB". */
  const copyingText = (name: string | undefined, sent: string, size: string | null) =>
    name === undefined
      ? size === null
        ? t('Copying a file: {{sent}}', { sent })
        : t('Copying a file: {{sent}} of {{size}}', { sent, size })
      : size === null
        ? t('Copying "{{name}}": {{sent}}', { name, sent })
        : t('Copying "{{name}}": {{sent}} of {{size}}', { name, sent, size });

  return (
    <Modal
      open={open}
      onOpenChange={close}
      closable={!moving}
      title={t(moveDialogTexts.title)}
      description={t(moveDialogTexts.intro)}
      footer={
        phase.kind === 'moving' ? (
          <div className="flex justify-end">
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={phase.cancelling}
              onClick={() => {
                setPhase({ ...phase, cancelling: true });
                abort.current?.abort();
              }}
            >
              {phase.cancelling ? t('Cancelling...') : t('Cancel move')}
            </button>
          </div>
        ) : phase.kind === 'done' ? (
          <div className="flex justify-end">
            <button type="button" className={buttonClass('primary')} onClick={() => close(false)}>
              {t('Done')}
            </button>
          </div>
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => close(false)}>
              {phase.kind === 'failed' ? t('Close') : t('Cancel')}
            </button>
            {recorded.data && (
              <button
                type="button"
                className={buttonClass('secondary')}
                onClick={() => void cancelRecorded()}
              >
                {t('Cancel move')}
              </button>
            )}
            <button
              type="button"
              className={buttonClass('primary')}
              disabled={!chosen || recorded.isPending}
              onClick={() => chosen && void start(chosen)}
            >
              {recorded.data && chosen === recorded.data.target_provider
                ? t('Continue move')
                : phase.kind === 'failed'
                  ? t('Try again')
                  : t('Move vault')}
            </button>
          </div>
        )
      }
    >
      {phase.kind === 'done' ? (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {named(moveDialogTexts.done, phase.target)}
        </p>
      ) : phase.kind === 'moving' ? (
        <div role="status" aria-live="polite" className="space-y-2 text-sm">
          <p className="flex items-center gap-2 font-medium text-slate-900 dark:text-white">
            <Loader2 aria-hidden="true" className="size-4 animate-spin" />
            {chosen && named(moveDialogTexts.moving, chosen)}
          </p>
          <Progress label={t('Move progress')} value={percent} />
          {progress && (
            <p className="text-slate-600 dark:text-slate-400">
              {[
                t(
                  vault.vault_type === 'files'
                    ? msg('{{done}} of {{total}} files')
                    : msg('{{done}} of {{total}} parts'),
                  {
                    done: formatNumber(progress.items.done),
                    total: formatNumber(progress.items.total),
                  },
                ),
                t('{{sent}} of {{size}}', {
                  sent: formatBytes(progress.bytes.done),
                  size: formatBytes(progress.bytes.total),
                }),
                progress.bytesPerSecond !== null &&
                  t('{{speed}}/s', { speed: formatBytes(progress.bytesPerSecond) }),
                progress.secondsLeft !== null &&
                  t('about {{time}} left', { time: timeLeft(progress.secondsLeft) }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          )}
          {progress?.current && (
            <p className="truncate text-slate-600 dark:text-slate-400">
              {copyingText(
                currentName,
                formatBytes(progress.current.sent),
                progress.current.size === null ? null : formatBytes(progress.current.size),
              )}
            </p>
          )}
        </div>
      ) : (
        <div className="space-y-4">
          {phase.kind === 'failed' && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {named(moveDialogTexts.stillOn, vault.provider_type, {
                message: failureText(phase.failure),
              })}
            </p>
          )}
          {recorded.data && (
            <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
              {named(moveDialogTexts.resumed, recorded.data.target_provider, {
                when: formatDate(recorded.data.started_at, {
                  year: 'numeric',
                  month: 'numeric',
                  day: 'numeric',
                  hour: 'numeric',
                  minute: '2-digit',
                  second: '2-digit',
                }),
              })}
            </p>
          )}
          <fieldset>
            <legend className="text-sm font-medium text-slate-900 dark:text-white">
              {named(moveDialogTexts.from, vault.provider_type)}
            </legend>
            <div className="mt-2 space-y-2">
              {choices.map((p) => {
                const status = providerConnection(p.id, env);
                const selectable = status === 'connected';
                return (
                  <label
                    key={p.id}
                    className={`flex items-center gap-3 rounded-lg border px-3 py-2 text-sm ${
                      chosen === p.id
                        ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/40'
                        : 'border-slate-200 dark:border-slate-700'
                    } ${selectable ? 'cursor-pointer' : 'cursor-not-allowed opacity-70'}`}
                  >
                    <input
                      type="radio"
                      name={`${ids}-target`}
                      value={p.id}
                      checked={chosen === p.id}
                      disabled={!selectable}
                      onChange={() => setTarget(p.id)}
                      className="accent-indigo-600"
                    />
                    <ProviderIcon provider={p.id} className="size-5 shrink-0" />
                    <span className="font-medium text-slate-900 dark:text-white">
                      {t(nameOf(p.id))}
                    </span>
                    {!selectable && (
                      <span className="ml-auto text-xs text-slate-600 dark:text-slate-400">
                        {t(connectionLabel(p.id, status))}
                      </span>
                    )}
                  </label>
                );
              })}
            </div>
          </fieldset>
          {chosen === 'local' && (
            <p className="flex gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {t(moveDialogTexts.localWarning)}
            </p>
          )}
          {vault.provider_type === 'server' ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t(moveDialogTexts.serverSource)}
            </p>
          ) : (
            <div>
              <label className="flex items-center gap-2 text-sm font-medium text-slate-900 dark:text-white">
                <input
                  type="checkbox"
                  checked={deleteSource}
                  onChange={(e) => setDeleteSource(e.target.checked)}
                  aria-describedby={`${ids}-delete-help`}
                  className="accent-indigo-600"
                />
                {named(moveDialogTexts.deleteOld, vault.provider_type)}
              </label>
              <p
                id={`${ids}-delete-help`}
                className="mt-1 ml-6 text-sm text-slate-600 dark:text-slate-400"
              >
                {t(moveDialogTexts.deleteOldHelp)}
              </p>
            </div>
          )}
        </div>
      )}
    </Modal>
  );
}

function timeLeft(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
