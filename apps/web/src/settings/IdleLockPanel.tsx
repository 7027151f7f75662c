// Settings: 'Lock vaults after inactivity' (issue 20, item 7): Off, 1, 5 or 15 minutes, kept on
// this device (vaults/idle/idleSettings.ts); the app's lock watch picks a change up at once.
import { Timer } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import {
  IDLE_CHOICES,
  readIdleMinutes,
  subscribeIdleMinutes,
  writeIdleMinutes,
  type IdleMinutes,
} from '../vaults/idle/idleSettings.ts';
import { formatNumber } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { Panel } from './Panel.tsx';

export function IdleLockPanel() {
  const { t } = useTranslation();
  const minutes = useSyncExternalStore(subscribeIdleMinutes, readIdleMinutes);
  const label = (m: IdleMinutes) =>
    m === 0
      ? t('Off')
      : m === 1
        ? t('1 minute')
        : t('{{count}} minutes', { count: formatNumber(m) });
  return (
    <Panel
      title={t('Lock vaults after inactivity')}
      icon={<Timer className="size-5" />}
      description={t(
        'Locks every unlocked vault when this device has had no input for a while, with a warning one minute before. Vaults also lock 30 minutes after unlocking. This choice is kept on this device only.',
      )}
    >
      <fieldset>
        <legend className="sr-only">{t('Lock vaults after inactivity')}</legend>
        <div className="inline-flex flex-wrap gap-1 rounded-xl border border-slate-200 bg-slate-50 p-1 dark:border-slate-700 dark:bg-slate-800/60">
          {IDLE_CHOICES.map((m) => (
            <label
              key={m}
              className="relative cursor-pointer rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 has-[:checked]:bg-white has-[:checked]:text-indigo-700 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 dark:text-slate-300 dark:has-[:checked]:bg-indigo-950 dark:has-[:checked]:text-indigo-300"
            >
              <input
                type="radio"
                name="idle-lock"
                value={m}
                checked={minutes === m}
                onChange={() => writeIdleMinutes(m)}
                // Over the whole label, unseen: the label is what shows the choice.
                className="absolute inset-0 cursor-pointer appearance-none rounded-lg opacity-0"
              />
              {label(m)}
            </label>
          ))}
        </div>
      </fieldset>
    </Panel>
  );
}
