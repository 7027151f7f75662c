// A password field with an accessible show/hide toggle.
import { Eye, EyeOff } from 'lucide-react';
import { forwardRef, useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from '../i18n/i18n.ts';

export const inputClass =
  'block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-950 dark:text-white dark:placeholder:text-slate-500';

export const PasswordInput = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
    toggle?: boolean;
    /**
     * What the show/hide button names, so two toggles on one form read differently (translated,
     * as it reads within a sentence); 'password' by default.
     */
    toggleLabel?: string;
  }
>(function PasswordInput({ toggle = true, toggleLabel, className = '', ...props }, ref) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const name = toggleLabel ?? t('password');
  return (
    <div className="relative">
      <input
        ref={ref}
        type={shown ? 'text' : 'password'}
        className={`${inputClass} ${toggle ? 'pr-11' : ''} ${className}`}
        {...props}
      />
      {toggle && (
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-label={shown ? t('Hide {{name}}', { name }) : t('Show {{name}}', { name })}
          aria-pressed={shown}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:text-white"
        >
          {shown ? (
            <EyeOff aria-hidden="true" className="size-4" />
          ) : (
            <Eye aria-hidden="true" className="size-4" />
          )}
        </button>
      )}
    </div>
  );
});
