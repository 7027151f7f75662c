// A decorative picture of a vault: what the server sees (ciphertext) beside what you see.
import { FileText, Image, KeyRound, LockOpen } from 'lucide-react';
import { formatNumber } from '../i18n/format.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

const rows = [
  {
    icon: FileText,
    name: msg('Tax return 2025.pdf'),
    cipher: '9f3a·c71e·04bd',
    size: 1.2,
    unit: 'MB',
  },
  { icon: Image, name: msg('Passport scan.jpg'), cipher: 'e2d0·5a9c·b816', size: 840, unit: 'KB' },
  { icon: KeyRound, name: msg('Bank login'), cipher: '7c41·0fe9·a2d3', size: 1, unit: 'KB' },
];

export function HeroVisual() {
  const { t } = useTranslation();
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-xl shadow-slate-900/5 dark:border-slate-800 dark:bg-slate-900 dark:shadow-black/30">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <p className="text-sm font-semibold text-slate-900 dark:text-white">
              {t('Family records')}
            </p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {t('{{count}} items', { count: formatNumber(rows.length) })} · {t('File vault')}
            </p>
          </div>
          <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
            <LockOpen className="size-3" /> {t('Unlocked on this device')}
          </span>
        </div>
        <ul className="mt-5 space-y-2">
          {rows.map(({ icon: Icon, name, cipher, size, unit }) => (
            <li
              key={name}
              className="flex items-center gap-3 rounded-xl border border-slate-100 bg-slate-50 px-3 py-2.5 dark:border-slate-800 dark:bg-slate-950/60"
            >
              <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
                <Icon className="size-4" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-800 dark:text-slate-100">
                  {t(name)}
                </span>
                <span className="block truncate font-mono text-xs text-slate-500 dark:text-slate-400">
                  {t('server sees {{cipher}}…', { cipher })}
                </span>
              </span>
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {formatNumber(size)} {unit}
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-5 flex flex-wrap gap-2 text-xs">
          {['AES-256-GCM', 'Argon2id', t('Zero-knowledge')].map((tag) => (
            <span
              key={tag}
              className="rounded-md bg-slate-100 px-2 py-1 font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-300"
            >
              {tag}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}
