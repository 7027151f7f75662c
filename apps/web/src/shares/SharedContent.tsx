// What a text or secret link shows once opened (issue 29): a text with its Copy button, or a
// secret as a card of its fields, the password masked until shown, each with Copy (the clipboard
// is cleared 30 s later, as in the vault).
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import type { SecretItem } from '@sealvault/crypto';
import type { ShareInfo } from '@sealvault/protocol';
import { buttonClass } from '../components/buttonStyles.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';
import { copyWithAutoClear } from '../secrets/clipboard.ts';

const FIELD_LABELS: Record<string, string> = {
  username: msg('Username'),
  password: msg('Password'),
  url: msg('Website'),
  notes: msg('Notes'),
  // A field sharedItem.ts adds under its English name.
  'One-time code (otpauth)': msg('One-time code (otpauth)'),
};
const MASKED = new Set(['password']);
// sharedItem.ts names a secret's further websites `Website 2`, `Website 3`, ... in English.
const MORE_WEBSITE = /^Website (\d+)$/;

export function SharedContent({ kind, item }: { kind: ShareInfo['kind']; item: SecretItem }) {
  const { t } = useTranslation();
  if (kind === 'text') {
    const text = typeof item.notes === 'string' ? item.notes : '';
    return (
      <div className="mt-6">
        <pre className="max-h-96 overflow-auto rounded-lg bg-slate-100 p-4 text-sm whitespace-pre-wrap text-slate-900 dark:bg-slate-800 dark:text-slate-100">
          {text}
        </pre>
        <CopyButton label={t('Copy text')} value={text} />
      </div>
    );
  }
  const fields = Object.entries(item).filter(
    (e): e is [string, string] => e[0] !== 'title' && typeof e[1] === 'string' && e[1] !== '',
  );
  return (
    <section
      aria-label={item.title || t('Secret')}
      className="mt-6 rounded-xl border border-slate-200 p-4 dark:border-slate-700"
    >
      <h2 className="font-semibold text-slate-900 dark:text-white">{item.title || t('Secret')}</h2>
      <dl className="mt-3 space-y-3">
        {fields.map(([key, value]) => (
          <Field
            key={key}
            label={
              FIELD_LABELS[key]
                ? t(FIELD_LABELS[key])
                : MORE_WEBSITE.test(key)
                  ? t('Website {{number}}', { number: MORE_WEBSITE.exec(key)![1] })
                  : key
            }
            value={value}
            masked={MASKED.has(key)}
          />
        ))}
      </dl>
    </section>
  );
}

function Field({ label, value, masked }: { label: string; value: string; masked: boolean }) {
  const [shown, setShown] = useState(!masked);
  const { t } = useTranslation();
  return (
    <div>
      <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-0.5 flex items-center gap-2">
        <span className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900 dark:text-slate-100">
          {shown ? value : '••••••••••••'}
        </span>
        {masked && (
          <button
            type="button"
            aria-label={
              shown ? t('Hide {{name}}', { name: label }) : t('Show {{name}}', { name: label })
            }
            onClick={() => setShown((s) => !s)}
            className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            {shown ? (
              <EyeOff aria-hidden="true" className="size-4" />
            ) : (
              <Eye aria-hidden="true" className="size-4" />
            )}
          </button>
        )}
        <CopyButton label={t('Copy {{label}}', { label })} value={value} compact />
      </dd>
    </div>
  );
}

function CopyButton({
  label,
  value,
  compact,
}: {
  label: string;
  value: string;
  compact?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const { t } = useTranslation();
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() =>
        void copyWithAutoClear(value).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
      className={
        compact
          ? buttonClass('secondary', 'md', 'h-8 px-2 text-xs')
          : buttonClass('secondary', 'md', 'mt-3')
      }
    >
      {copied ? t('Copied') : compact ? t('Copy') : label}
    </button>
  );
}
