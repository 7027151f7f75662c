// The dashboard's 'Vault Limit Reached' tile (docs/product.md §2): a disabled tile whose tooltip
// says why. The tooltip's code (Radix Tooltip and the popper that places it, floating-ui) loads
// when the pointer or the focus comes to the tile, as the user menu's does ([Note: user menu on
// first reach] in shell/UserMenu.tsx): the dashboard's first screen does not wait for it (issue
// 31), and the tooltip shows once it is in. A screen reader hears the text from the start: it is
// the tile's description.
import { Plus } from 'lucide-react';
import { useState, type ButtonHTMLAttributes } from 'react';
import { deferredModule, useDeferredModule } from '../components/deferredModule.ts';
import { formatNumber } from '../i18n/format.ts';
import { useTranslation } from '../i18n/i18n.ts';

const tooltipCode = deferredModule(() => import('./LimitTooltip.tsx'));

export function LimitTile({ max, className }: { max: number; className: string }) {
  const { t } = useTranslation();
  const [code, want] = useDeferredModule(tooltipCode);
  const [focused, setFocused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const tip = t('You have reached your limit of {{max}} vaults. Upgrade to create more.', {
    max: formatNumber(max),
  });
  const tile = (reach?: ButtonHTMLAttributes<HTMLButtonElement>) => (
    <button
      {...reach}
      type="button"
      aria-disabled="true"
      aria-describedby="vault-limit-tip"
      onClick={(e) => e.preventDefault()}
      className={`${className} cursor-not-allowed border-slate-300 text-slate-500 dark:border-slate-700 dark:text-slate-500`}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 dark:bg-slate-800">
        <Plus aria-hidden="true" className="size-6" />
      </span>
      {t('Vault Limit Reached')}
      <span id="vault-limit-tip" className="sr-only">
        {tip}
      </span>
    </button>
  );
  if (code) {
    return (
      <code.LimitTooltip tip={tip} defaultOpen={hovered || focused} focusOnMount={focused}>
        {tile()}
      </code.LimitTooltip>
    );
  }
  return tile({
    onPointerEnter: () => {
      setHovered(true);
      want();
    },
    onPointerLeave: () => setHovered(false),
    onFocus: () => {
      setFocused(true);
      want();
    },
    onBlur: () => setFocused(false),
  });
}
