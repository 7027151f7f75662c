// The user menu itself (docs/product.md §2): the full name (or 'User') and the e-mail, then
// Subscription, Settings (and, for an admin, Admin console, issue 33) and Logout. Radix
// DropdownMenu gives the keyboard handling, and closes the menu on an outside click and on
// Escape. Loaded when the user reaches for the top bar's button ([Note: user menu on first reach]
// in UserMenu.tsx), so it may mount already asked to open.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { CreditCard, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../i18n/i18n.ts';
import { triggerClass, UserMenuFace } from './UserMenuFace.tsx';
import { useSignOut } from './useSignOut.ts';

const item =
  'flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800 dark:data-[highlighted]:text-white';

export interface AccountMenuProps {
  fullName: string | null;
  email: string;
  /** Offers the admin console (the profile's role). */
  isAdmin: boolean;
  /** The button's name and initials (UserMenu.tsx). */
  label: string;
  letters: string;
  /** How the button was asked to open before this code had loaded, if it was. */
  openOnMount: 'pointer' | 'keyboard' | null;
  /** The button drawn before had the focus: this trigger takes it over. */
  focusOnMount: boolean;
}

export function AccountMenu({
  fullName,
  email,
  isAdmin,
  label,
  letters,
  openOnMount,
  focusOnMount,
}: AccountMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const name = fullName?.trim() || t('User');
  const trigger = useRef<HTMLButtonElement>(null);
  // Opened from the keyboard before Radix listened for keys: the first item takes the focus, as
  // Radix gives it when a key opens the menu (only on that first opening).
  const focusFirstItem = useRef(openOnMount === 'keyboard');
  const firstItem = (el: HTMLDivElement | null) => {
    if (!el || !focusFirstItem.current) return;
    focusFirstItem.current = false;
    el.focus({ preventScroll: true });
  };
  useLayoutEffect(() => {
    // Before the menu's own focus handling runs (a layout effect comes before any effect).
    if (focusOnMount) trigger.current?.focus({ preventScroll: true });
  }, [focusOnMount]);

  return (
    // Not modal: a modal menu hides the page with aria-hidden while focus could still reach it.
    <Menu.Root modal={false} defaultOpen={openOnMount !== null}>
      <Menu.Trigger
        ref={trigger}
        // The visible initials are part of the name (WCAG 2.5.3, label in name).
        aria-label={label}
        className={triggerClass}
      >
        <UserMenuFace letters={letters} />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-800 dark:bg-slate-900"
        >
          <Menu.Label className="px-2.5 pt-1.5 pb-2">
            <span className="block truncate text-sm font-semibold text-slate-900 dark:text-white">
              {name}
            </span>
            <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
              {email}
            </span>
          </Menu.Label>
          <Menu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          <Menu.Item
            ref={firstItem}
            className={item}
            onSelect={() => void navigate('/dashboard?view=subscription')}
          >
            <CreditCard aria-hidden="true" className="size-4 text-slate-500" />
            {t('Subscription')}
          </Menu.Item>
          <Menu.Item className={item} onSelect={() => void navigate('/dashboard?view=settings')}>
            <Settings aria-hidden="true" className="size-4 text-slate-500" />
            {t('Settings')}
          </Menu.Item>
          {isAdmin && (
            <Menu.Item className={item} onSelect={() => void navigate('/admin')}>
              <ShieldCheck aria-hidden="true" className="size-4 text-slate-500" />
              {t('Admin console')}
            </Menu.Item>
          )}
          <Menu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          <Menu.Item className={item} onSelect={() => void signOut()}>
            <LogOut aria-hidden="true" className="size-4 text-slate-500" />
            {t('Logout')}
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
