// Settings: the app's language (issue 33, item 7), kept on this device (i18n/i18n.ts). 'Browser
// language' follows the browser's own list; each language is named in itself, as is usual.
import { useState } from 'react';
import { Languages } from 'lucide-react';
import { LANGUAGES, languageChoice, setLanguage, useTranslation } from '../i18n/i18n.ts';
import { Panel } from './Panel.tsx';

export function LanguagePanel() {
  const { t } = useTranslation();
  // Shown chosen at once: the language itself follows when its catalogue has loaded.
  const [choice, setChoice] = useState(languageChoice);
  const options = [
    { value: 'browser', label: t('Browser language'), lang: undefined },
    ...LANGUAGES.map((l) => ({ value: l.code, label: l.name, lang: l.code })),
  ] as const;
  return (
    <Panel
      title={t('Language')}
      icon={<Languages className="size-5" />}
      description={t(
        'The language of SealVault on this device. Dates and numbers follow the formats of your browser.',
      )}
    >
      <fieldset>
        <legend className="sr-only">{t('Language')}</legend>
        <div className="inline-flex flex-wrap gap-1 rounded-xl border border-slate-200 bg-slate-50 p-1 dark:border-slate-700 dark:bg-slate-800/60">
          {options.map((o) => (
            <label
              key={o.value}
              lang={o.lang}
              className="relative cursor-pointer rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 has-[:checked]:bg-white has-[:checked]:text-indigo-700 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 dark:text-slate-300 dark:has-[:checked]:bg-indigo-950 dark:has-[:checked]:text-indigo-300"
            >
              <input
                type="radio"
                name="language"
                value={o.value}
                checked={choice === o.value}
                onChange={() => {
                  setChoice(o.value);
                  void setLanguage(o.value);
                }}
                // Over the whole label, unseen: the label is what shows the choice.
                className="absolute inset-0 cursor-pointer appearance-none rounded-lg opacity-0"
              />
              {o.label}
            </label>
          ))}
        </div>
      </fieldset>
    </Panel>
  );
}
