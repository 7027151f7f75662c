// "Move to another provider" (issue 27): the providers this browser can reach, whether to delete the
// old copies (default yes, with what it means), then the move with its progress (bytes, files,
// speed, time left, the file being copied), a Cancel that leaves the vault as it was, and a warning
// when the page is closed meanwhile. A move started before (here or on another device) is offered
// to continue or to cancel. The copying is engine.ts. Its parts: the choice (MoveChoices.tsx), the progress
// (MoveProgressView.tsx) and the texts (moveDialogTexts.ts).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { movesApi, userMessage, type ProviderType, type Vault } from '@sealvault/protocol';
import { Modal } from '../../components/Modal.tsx';
import { buttonClass } from '../../components/buttonStyles.ts';
import { useLeaveGuard } from '../../components/useLeaveGuard.ts';
import { filesKey, type FilesList } from '../../files/useFiles.ts';
import { secretsKey } from '../../secrets/useSecrets.ts';
import { useTranslation } from '../../i18n/i18n.ts';
import { vaultKeysQuery } from '../useVaults.ts';
import { cancelMove, moveVault } from './engine.ts';
import { MoveChoices } from './MoveChoices.tsx';
import { moveDialogTexts, nameOf, type Failure, type Named } from './moveDialogTexts.ts';
import { MoveError } from './moveErrors.ts';
import { MoveProgressView } from './MoveProgressView.tsx';
import type { MoveProgress } from './plan.ts';

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
  const named: Named = (
    [text, local]: readonly [string, string],
    type: ProviderType,
    values: Record<string, string> = {},
  ) => (type === 'local' ? t(local, values) : t(text, { ...values, provider: t(nameOf(type)) }));
  const failureText = ({ text, values = {}, texts = {} }: Failure) =>
    t(text, {
      ...values,
      ...Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, t(v)])),
    });
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
        <MoveProgressView
          heading={chosen && named(moveDialogTexts.moving, chosen)}
          progress={phase.progress}
          vaultType={vault.vault_type}
          fileName={fileName}
        />
      ) : (
        <MoveChoices
          vault={vault}
          failed={phase.kind === 'failed' ? failureText(phase.failure) : null}
          recorded={recorded.data}
          chosen={chosen}
          onChoose={setTarget}
          deleteSource={deleteSource}
          onDeleteSource={setDeleteSource}
          named={named}
        />
      )}
    </Modal>
  );
}
