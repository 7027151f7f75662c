// The user menu of the top bar (docs/product.md §2); the menu itself is AccountMenu.tsx.
//
// [Note: user menu on first reach]
// The menu's Radix code (DropdownMenu and the popper that places it, floating-ui: about 16 KiB
// compressed) is not needed to draw the top bar, and on the dashboard it was most of what the
// first screen waited for beyond the list (issue 31). So the top bar draws a button that looks
// and is named the same, and loads the menu when the pointer comes to it or the focus arrives;
// the Radix trigger then takes its place (and the focus, if it had it). A press or a key that
// opens a Radix menu (pointerdown; Enter, Space, ArrowDown) before the code is in opens it once
// it is, so the first use works as every later one does. Once loaded it stays for the page.
import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { deferredModule, useDeferredModule } from '../components/deferredModule.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { triggerClass, UserMenuFace } from './UserMenuFace.tsx';

const menuCode = deferredModule(() => import('./AccountMenu.tsx'));

export function initials(fullName: string | null, email: string): string {
  const source = fullName?.trim() || email;
  const parts = source.split(/[\s@._-]+/).filter(Boolean);
  const letters =
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts[1]?.[0] ?? ''}` : source.slice(0, 2);
  return letters.toUpperCase();
}

/** The keys that open a Radix dropdown menu from its trigger. */
const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

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
  const letters = initials(fullName, email);
  // The visible initials are part of the name (WCAG 2.5.3, label in name).
  const label = t('Account menu, {{initials}}', { initials: letters });
  const [code, want] = useDeferredModule(menuCode);
  const [openOnMount, setOpenOnMount] = useState<'pointer' | 'keyboard' | null>(null);
  const [focused, setFocused] = useState(false);

  if (code) {
    return (
      <code.AccountMenu
        fullName={fullName}
        email={email}
        isAdmin={isAdmin}
        label={label}
        letters={letters}
        openOnMount={openOnMount}
        focusOnMount={focused}
      />
    );
  }
  const onPointerDown = (e: PointerEvent) => {
    // As Radix's trigger: the main button without Ctrl opens, and the menu, not the button,
    // takes the focus.
    if (e.button !== 0 || e.ctrlKey) return;
    e.preventDefault();
    setOpenOnMount('pointer');
    want();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!OPENING_KEYS.includes(e.key)) return;
    e.preventDefault();
    setOpenOnMount('keyboard');
    want();
  };
  return (
    <button
      type="button"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      className={triggerClass}
      onPointerEnter={want}
      onFocus={() => {
        setFocused(true);
        want();
      }}
      onBlur={() => setFocused(false)}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    >
      <UserMenuFace letters={letters} />
    </button>
  );
}
