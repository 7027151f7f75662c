// The user menu of the top bar (docs/product.md §2): the full name (or 'User') and the e-mail, then
// Subscription, Settings (and, for an admin, Admin console, issue 33) and Logout. Radix DropdownMenu gives the keyboard handling, and closes
// the menu on an outside click and on Escape.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, CreditCard, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../i18n/i18n.ts';
import { useSignOut } from './useSignOut.ts';

const item =
  'flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-700 outline-none select-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 dark:text-slate-200 dark:data-[highlighted]:bg-slate-800 dark:data-[highlighted]:text-white';

export function initials(fullName: string | null, email: string): string {
  const source = fullName?.trim() || email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  const letters =
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts[1]?.[0] ?? ''}` : source.slice(0, 2);
  return letters.toUpperCase();
}

export function UserMenu({
  fullName,
  email,
  isAdmin = false,
}: {
  fullName: string | null;
  email: string;
  /** Offers the admin console (the profile's role). */
  isAdmin?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const name = fullName?.trim() || t('User');
  const letters = initials(fullName, email);

  return (
    // Not modal: a modal menu hides the page with aria-hidden while focus could still reach it.
    <Menu.Root modal={false}>
      <Menu.Trigger
        // The visible initials are part of the name (WCAG 2.5.3, label in name).
        aria-label={t('Account menu, {{initials}}', { initials: letters })}
        className="inline-flex h-10 shrink-0 items-center gap-1.5 rounded-lg px-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 data-[state=open]:bg-slate-100 dark:hover:bg-slate-800 dark:data-[state=open]:bg-slate-800"
      >
        <span
          aria-hidden="true"
          className="inline-flex size-8 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white"
        >
          {letters}
        </span>
        <ChevronDown aria-hidden="true" className="mr-0.5 size-4 text-slate-500 max-sm:hidden" />
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
