// The progress of a running move in "Move to another provider" (MoveVaultDialog.tsx, issue 27):
// the bar, files (or parts) and bytes done, the speed, the time left and the file being copied.
// A part of the dialog of its own since it only shows the engine's progress figures (plan.ts).
import { Loader2 } from 'lucide-react';
import { formatBytes, type Vault } from '@sealvault/protocol';
import { Progress } from '../../components/Progress.tsx';
import { formatNumber } from '../../i18n/format.ts';
import { msg, useTranslation } from '../../i18n/i18n.ts';
import type { MoveProgress } from './plan.ts';

export function MoveProgressView({
  heading,
  progress,
  vaultType,
  fileName,
}: {
  /** "Moving to Dropbox...", or nothing before a target is known. */
  heading: string | null;
  progress: MoveProgress | null;
  vaultType: Vault['vault_type'];
  /** A file's name as the open file browser decrypted it, if it did. */
  fileName: (id: string) => string | undefined;
}) {
  const { t } = useTranslation();
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
    <div role="status" aria-live="polite" className="space-y-2 text-sm">
      <p className="flex items-center gap-2 font-medium text-slate-900 dark:text-white">
        <Loader2 aria-hidden="true" className="size-4 animate-spin" />
        {heading}
      </p>
      <Progress label={t('Move progress')} value={percent} />
      {progress && (
        <p className="text-slate-600 dark:text-slate-400">
          {[
            t(
              vaultType === 'files'
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
  );
}

function timeLeft(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
