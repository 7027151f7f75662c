// The question an upload asks when a file's name is already in use in the vault: replace (the file
// there is kept as an older version, versions.ts), keep both (the new file gets a numbered name,
// "notes (2).txt") or skip it; "Do the same for the other N" answers it for the rest of the batch.
// Replace is offered when the name is a file's of the vault (not a folder's, nor another file's of
// the same batch). Focus moves to the question when it appears, so a keyboard or screen
// reader user meets it where the upload stopped.
import { FileWarning } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '../components/buttonStyles.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { formatNumber } from '../i18n/format.ts';

export interface NameAnswer {
  choice: 'replace' | 'keep-both' | 'skip';
  /** Apply the same choice to every later file of the batch whose name is in use. */
  forRest: boolean;
}

export function NameQuestion({
  name,
  inFolder,
  savedAs,
  more,
  canReplace,
  onAnswer,
}: {
  name: string;
  /** The name is in use in a folder rather than at the vault's root. */
  inFolder: boolean;
  savedAs: string;
  /** Later files of the batch whose name is in use too. */
  more: number;
  /** The name is a file's that can be replaced (kept as an older version). */
  canReplace: boolean;
  onAnswer: (a: NameAnswer) => void;
}) {
  const { t } = useTranslation();
  const [forRest, setForRest] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), [name]);
  return (
    <div
      role="group"
      aria-labelledby="name-question"
      className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950/50"
    >
      <p
        id="name-question"
        className="flex items-start gap-2 text-sm font-medium break-words text-amber-900 dark:text-amber-100"
      >
        <FileWarning aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {inFolder
            ? t('"{{name}}" already exists in this folder.', { name })
            : t('"{{name}}" already exists in this vault.', { name })}
        </span>
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {canReplace && (
          <button
            ref={first}
            type="button"
            onClick={() => onAnswer({ choice: 'replace', forRest })}
            className={buttonClass('primary')}
          >
            {t('Replace')}
          </button>
        )}
        <button
          ref={canReplace ? undefined : first}
          type="button"
          onClick={() => onAnswer({ choice: 'keep-both', forRest })}
          className={buttonClass(canReplace ? 'secondary' : 'primary')}
        >
          {t('Keep both')}
        </button>
        <button
          type="button"
          onClick={() => onAnswer({ choice: 'skip', forRest })}
          className={buttonClass('secondary')}
        >
          {t('Skip')}
        </button>
      </div>
      <p className="mt-2 text-xs text-amber-900 dark:text-amber-200">
        {canReplace && `${t('Replace keeps the file there as an older version.')} `}
        {t('Keep both saves the new file as "{{name}}".', { name: savedAs })}
      </p>
      {more > 0 && (
        <label className="mt-2 flex items-center gap-2 text-sm text-amber-900 dark:text-amber-100">
          <input
            type="checkbox"
            checked={forRest}
            onChange={(e) => setForRest(e.target.checked)}
            className="size-4 accent-indigo-600"
          />
          {more === 1
            ? t('Do the same for the other {{count}} file with a name in use', {
                count: formatNumber(more),
              })
            : t('Do the same for the other {{count}} files with a name in use', {
                count: formatNumber(more),
              })}
        </label>
      )}
    </div>
  );
}
