// The warning one minute before a lock ([Note: lock warning] in lockWatch.ts): a countdown, "Keep
// unlocked" and "Lock now". An alertdialog that takes the focus when the user is away (the idle
// lock) and leaves it where it is while they work (a session ending mid-typing). It does not hide
// the page: with no dialog open it is non-modal; over an open dialog (a half-typed secret) it is
// modal, so it stacks above that dialog and clicking it never closes the form beneath.
import * as Dialog from '@radix-ui/react-dialog';
import { Clock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '../../components/buttonStyles.ts';
import { formatNumber } from '../../i18n/format.ts';
import { msg, Trans, useTranslation } from '../../i18n/i18n.ts';
import { appLockWatch, useLockWarning, useVaultSessions } from '../sessionContext.tsx';
import type { LockWarning as Warning, LockWatch } from './lockWatch.ts';

/** "0:42" */
export const countdown = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** What the warning says: <time> the countdown (hidden from screen readers), <sr> what they hear. */
const warningTexts = {
  one: {
    idle: msg(
      'Your unlocked vault locks in <time>{{left}}</time><sr>less than a minute</sr>. Anything you were typing stays on the page.',
    ),
    session: msg(
      'Your unlocked vault locks in <time>{{left}}</time><sr>less than a minute</sr>, at the end of its 30-minute session. Anything you were typing stays on the page.',
    ),
  },
  many: {
    idle: msg(
      'Your {{count}} unlocked vaults lock in <time>{{left}}</time><sr>less than a minute</sr>. Anything you were typing stays on the page.',
    ),
    session: msg(
      'Your {{count}} unlocked vaults lock in <time>{{left}}</time><sr>less than a minute</sr>, at the end of its 30-minute session. Anything you were typing stays on the page.',
    ),
  },
} as const;

/** A modal Radix dialog makes the body ignore the pointer: that is how an open one is told. */
const dialogOpen = () =>
  typeof document !== 'undefined' && document.body.style.pointerEvents === 'none';

/** The time now, ticking every second while mounted (the warning mounts as it appears). */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return now;
}

export function LockWarning({ watch = appLockWatch }: { watch?: LockWatch }) {
  const warning = useLockWarning(watch);
  // Decided when the warning appears, not on every render: switching would remount it.
  const [shown, setShown] = useState<{ warning: Warning; modal: boolean } | null>(null);
  if (warning && shown?.warning !== warning) {
    setShown({ warning, modal: shown ? shown.modal : dialogOpen() });
  } else if (!warning && shown) {
    setShown(null);
  }
  if (!warning) return null;
  return <WarningDialog warning={warning} modal={shown?.modal ?? false} watch={watch} />;
}

function WarningDialog({
  warning,
  modal,
  watch,
}: {
  warning: Warning;
  modal: boolean;
  watch: LockWatch;
}) {
  const { t } = useTranslation();
  const sessions = useVaultSessions();
  const now = useNow();
  const keep = useRef<HTMLButtonElement>(null);
  // What had the focus before the warning took it, to give it back (Radix gives it to a trigger,
  // and this dialog has none).
  const previous = useRef<Element | null>(null);
  const left = countdown(warning.lockAt - now);
  const count = warning.vaultIds.length;
  const lockNow = () => {
    for (const id of warning.vaultIds) sessions.end(id, 'manual');
  };
  return (
    <Dialog.Root open modal={modal}>
      <Dialog.Portal>
        <Dialog.Content
          role="alertdialog"
          aria-describedby="lock-warning-text"
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            previous.current = document.activeElement;
            // The user is away (or nothing has the focus): the button takes it. Someone typing
            // keeps their place; the status line below still tells a screen reader.
            const active = document.activeElement;
            if (warning.idle || modal || !active || active === document.body) keep.current?.focus();
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            const el = previous.current;
            if (el instanceof HTMLElement && el.isConnected) el.focus();
          }}
          onInteractOutside={(e) => e.preventDefault()}
          onEscapeKeyDown={(e) => {
            e.preventDefault();
            watch.keepUnlocked();
          }}
          className="fixed right-4 bottom-4 z-[60] w-[min(24rem,calc(100vw-2rem))] rounded-2xl border border-amber-300 bg-white p-5 shadow-2xl focus:outline-none dark:border-amber-700/70 dark:bg-slate-900"
          style={{ pointerEvents: 'auto' }}
        >
          <div className="flex items-start gap-3">
            <Clock
              aria-hidden="true"
              className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400"
            />
            <div className="min-w-0">
              <Dialog.Title className="font-semibold text-slate-900 dark:text-white">
                {warning.idle ? t('Locking soon: no activity') : t('Vault session ending')}
              </Dialog.Title>
              <p id="lock-warning-text" className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                <Trans
                  i18nKey={
                    warningTexts[count === 1 ? 'one' : 'many'][warning.idle ? 'idle' : 'session']
                  }
                  values={{ count: formatNumber(count), left }}
                  components={{
                    time: <span className="font-semibold tabular-nums" aria-hidden="true" />,
                    sr: <span className="sr-only" />,
                  }}
                />
              </p>
              <p role="status" className="sr-only">
                {warning.idle
                  ? t('Vaults lock in less than a minute because of inactivity.')
                  : t('A vault session ends in less than a minute.')}
              </p>
            </div>
          </div>
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" onClick={lockNow} className={buttonClass('secondary')}>
              {t('Lock now')}
            </button>
            <button
              ref={keep}
              type="button"
              onClick={() => watch.keepUnlocked()}
              className={buttonClass('primary')}
            >
              {t('Keep unlocked')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
