// One secret (docs/product.md §2 "Secrets manager"): edit, delete, copy, show/hide password, and the created
// and updated dates. A secret with notes but no username or password shows as plain text.
import { Copy, Eye, EyeOff, FileText, Globe, KeyRound, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatDate } from '../vaults/format.ts';
import { isPlainText, type Secret } from './model.ts';

const iconButton =
  'rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white';

export function SecretCard({
  secret,
  onEdit,
  onDelete,
  onCopy,
}: {
  secret: Secret;
  onEdit: () => void;
  onDelete: () => void;
  onCopy: (label: string, value: string) => void;
}) {
  const [shown, setShown] = useState(false);
  const plain = isPlainText(secret);
  const Icon = plain ? FileText : KeyRound;
  return (
    <article
      aria-label={secret.title}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 className="flex min-w-0 items-center gap-2 font-semibold text-slate-900 dark:text-white">
          <Icon
            aria-hidden="true"
            className="size-4 shrink-0 text-indigo-600 dark:text-indigo-300"
          />
          <span className="truncate" title={secret.title}>
            {secret.title}
          </span>
        </h3>
        <div className="flex shrink-0 gap-1">
          <button
            type="button"
            onClick={onEdit}
            aria-label={`Edit ${secret.title}`}
            className={iconButton}
          >
            <Pencil aria-hidden="true" className="size-4" />
          </button>
          <button
            type="button"
            onClick={onDelete}
            aria-label={`Delete ${secret.title}`}
            className={`${iconButton} hover:!text-red-600`}
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </button>
        </div>
      </div>
      <dl className="mt-3 space-y-2 text-sm">
        {plain ? (
          <Row label="Content" onCopy={() => onCopy('Content', secret.notes)}>
            <pre className="font-sans whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">
              {secret.notes}
            </pre>
          </Row>
        ) : (
          <>
            {secret.username && (
              <Row label="Username" onCopy={() => onCopy('Username', secret.username)}>
                <span className="break-all">{secret.username}</span>
              </Row>
            )}
            {secret.password && (
              <Row
                label="Password"
                onCopy={() => onCopy('Password', secret.password)}
                extra={
                  <button
                    type="button"
                    onClick={() => setShown((s) => !s)}
                    aria-label={shown ? 'Hide password' : 'Show password'}
                    aria-pressed={shown}
                    className={iconButton}
                  >
                    {shown ? (
                      <EyeOff aria-hidden="true" className="size-4" />
                    ) : (
                      <Eye aria-hidden="true" className="size-4" />
                    )}
                  </button>
                }
              >
                <span className="font-mono break-all" data-testid="secret-password">
                  {shown ? secret.password : '••••••••••••'}
                </span>
              </Row>
            )}
            {secret.url && (
              <Row label="Website">
                <span className="flex items-center gap-1.5 break-all">
                  <Globe aria-hidden="true" className="size-3.5 shrink-0" /> {secret.url}
                </span>
              </Row>
            )}
            {secret.notes && (
              <Row label="Notes">
                <p className="whitespace-pre-wrap break-words">{secret.notes}</p>
              </Row>
            )}
          </>
        )}
      </dl>
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">
        Created {formatDate(secret.created_at)} · Updated {formatDate(secret.updated_at)}
      </p>
    </article>
  );
}

function Row({
  label,
  children,
  onCopy,
  extra,
}: {
  label: string;
  children: React.ReactNode;
  onCopy?: () => void;
  extra?: React.ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <dt className="w-20 shrink-0 pt-1 text-xs font-medium text-slate-500 dark:text-slate-400">
        {label}
      </dt>
      {/* The actions sit inside the dd: a dl's row may hold only dt and dd. */}
      <dd className="flex min-w-0 flex-1 items-start gap-3 text-slate-800 dark:text-slate-200">
        <div className="min-w-0 flex-1 pt-0.5">{children}</div>
        <div className="flex shrink-0 gap-1">
          {extra}
          {onCopy && (
            <button
              type="button"
              onClick={onCopy}
              aria-label={`Copy ${label.toLowerCase()}`}
              className={iconButton}
            >
              <Copy aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
      </dd>
    </div>
  );
}
