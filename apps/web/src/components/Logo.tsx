// The SealVault mark and word mark, used in every header.
import { ShieldCheck } from 'lucide-react';

export function LogoMark({ className = 'size-9' }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-indigo-700 text-white shadow-sm shadow-indigo-600/30 ${className}`}
    >
      <ShieldCheck className="size-[60%]" strokeWidth={2.25} />
    </span>
  );
}

export function Logo() {
  return (
    <span className="inline-flex items-center gap-2.5">
      <LogoMark />
      <span className="text-lg font-bold tracking-tight text-slate-900 dark:text-white">
        SealVault
      </span>
    </span>
  );
}
