// "Add other" (issue 20): the item types beyond the spec's site password and plain text, whose
// own buttons stay as they are. Radix DropdownMenu gives the keyboard handling.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { Braces, ChevronDown, CreditCard, IdCard, Plus, StickyNote, Terminal } from 'lucide-react';
import { buttonClass } from '../components/buttonStyles.ts';
import { KIND_NAMES, type FormKind } from './itemForm.ts';
import { useTranslation } from '../i18n/i18n.ts';

const item =
  'flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800 dark:data-[highlighted]:text-white';

const OTHER: [FormKind, typeof Plus][] = [
  ['card', CreditCard],
  ['note', StickyNote],
  ['identity', IdCard],
  ['ssh', Terminal],
  ['apikey', Braces],
];

export function AddOtherMenu({ onPick }: { onPick: (kind: FormKind) => void }) {
  const { t } = useTranslation();
  return (
    // Not modal: a modal menu hides the page with aria-hidden while focus could still reach it.
    <Menu.Root modal={false}>
      <Menu.Trigger className={buttonClass('secondary')}>
        <Plus aria-hidden="true" className="size-4" /> {t('Add other')}
        <ChevronDown aria-hidden="true" className="size-4" />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={6}
          className="z-50 w-56 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          {OTHER.map(([kind, Icon]) => (
            <Menu.Item key={kind} className={item} onSelect={() => onPick(kind)}>
              <Icon aria-hidden="true" className="size-4 text-slate-500" />
              {t(KIND_NAMES[kind])}
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
