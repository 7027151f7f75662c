// The tooltip of the dashboard's tile at the vault limit (Radix Tooltip), loaded when the pointer
// or the focus comes to the tile (LimitTile.tsx), so it may mount already showing.
import * as Tooltip from '@radix-ui/react-tooltip';
import { useLayoutEffect, useRef, type ReactElement } from 'react';

export function LimitTooltip({
  tip,
  defaultOpen,
  focusOnMount,
  children,
}: {
  tip: string;
  /** The pointer or the focus is on the tile already. */
  defaultOpen: boolean;
  /** The tile drawn before had the focus: this one takes it over. */
  focusOnMount: boolean;
  /** The tile: a button. */
  children: ReactElement;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (focusOnMount) trigger.current?.focus({ preventScroll: true });
  }, [focusOnMount]);
  return (
    <Tooltip.Provider delayDuration={100}>
      <Tooltip.Root defaultOpen={defaultOpen}>
        <Tooltip.Trigger asChild ref={trigger}>
          {children}
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content
            sideOffset={6}
            className="z-50 max-w-64 rounded-lg bg-slate-900 px-3 py-2 text-xs text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
          >
            {tip}
            <Tooltip.Arrow className="fill-slate-900 dark:fill-slate-100" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
