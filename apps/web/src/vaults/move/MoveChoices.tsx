// The choice in "Move to another provider" (MoveVaultDialog.tsx, issue 27): what went wrong last
// time, a move started before (here or on another device), the providers this browser can reach
// and whether to delete the old copies (default yes, with what it means). A part of the dialog of
// its own: the dialog holds the state and runs the move, this lays the form out.
import { AlertTriangle } from 'lucide-react';
import { useId } from 'react';
import type { ProviderType, Vault, VaultMove } from '@sealvault/protocol';
import {
  PROVIDERS,
  ProviderIcon,
  connectionLabel,
  providerConnection,
  useProviderEnv,
} from '../providers.tsx';
import { formatDate } from '../../i18n/format.ts';
import { useTranslation } from '../../i18n/i18n.ts';
import { moveDialogTexts, nameOf, type Named } from './moveDialogTexts.ts';

export function MoveChoices({
  vault,
  failed,
  recorded,
  chosen,
  onChoose,
  deleteSource,
  onDeleteSource,
  named,
}: {
  vault: Vault;
  /** What the last attempt's failure says, translated, or null. */
  failed: string | null;
  /** The move the server recorded for this vault, if one did not finish. */
  recorded: VaultMove | null | undefined;
  chosen: ProviderType | null;
  onChoose: (type: ProviderType) => void;
  deleteSource: boolean;
  onDeleteSource: (yes: boolean) => void;
  named: Named;
}) {
  const { t } = useTranslation();
  const env = useProviderEnv();
  const ids = useId();
  const choices = PROVIDERS.filter((p) => p.id !== vault.provider_type);
  return (
    <div className="space-y-4">
      {failed !== null && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {named(moveDialogTexts.stillOn, vault.provider_type, { message: failed })}
        </p>
      )}
      {recorded && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          {named(moveDialogTexts.resumed, recorded.target_provider, {
            when: formatDate(recorded.started_at, {
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
                  onChange={() => onChoose(p.id)}
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
              onChange={(e) => onDeleteSource(e.target.checked)}
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
  );
}
