// How the user menu's button looks (the initials in a circle and the chevron), shared by the
// button the top bar draws first (UserMenu.tsx) and the Radix menu's trigger that replaces it
// once the menu's code has loaded (AccountMenu.tsx): the two must not differ by a pixel.
import { ChevronDown } from 'lucide-react';

export const triggerClass =
  'inline-flex h-10 shrink-0 items-center gap-1.5 rounded-lg px-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 data-[state=open]:bg-slate-100 dark:hover:bg-slate-800 dark:data-[state=open]:bg-slate-800';

export function UserMenuFace({ letters }: { letters: string }) {
  return (
    <>
      <span
        aria-hidden="true"
        className="inline-flex size-8 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white"
      >
        {letters}
      </span>
      <ChevronDown aria-hidden="true" className="mr-0.5 size-4 text-slate-500 max-sm:hidden" />
    </>
  );
}
