// The UI's languages (issue 33, item 7), on i18next. Messages are gettext style: a message's id is
// its English text, word for word (the spec's texts), so English is the source catalogue and
// needs no file; `locales/<language>/*.json` map each English text to its translation. The files
// are split by area of the app (auth.json, files.json, ...) only so that they stay readable; they
// are merged into one namespace, so a text has one translation wherever it appears.
//
// The language: the one chosen in Settings (kept on this device), else the browser's first
// language we have, else English. Components call `useTranslation()` (from here, which makes
// sure i18next is set up first) and re-render when it changes; code outside components calls
// `i18n.t(...)` when the text is shown, never at module load. Dates and numbers: ./format.ts.
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next, Trans, useTranslation } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Where the choice made in Settings is kept (absent: follow the browser). */
export const LANGUAGE_KEY = 'sealvault.language';

type Catalogue = Record<string, string>;
const files = import.meta.glob<Catalogue>('./locales/*/*.json', { eager: true, import: 'default' });
const resources: Record<string, { translation: Catalogue }> = {};
for (const [file, catalogue] of Object.entries(files)) {
  const language = file.split('/')[2]!;
  const translation = (resources[language] ??= { translation: {} }).translation;
  Object.assign(translation, catalogue);
}

if (!i18n.isInitialized) {
  void i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources,
      supportedLngs: LANGUAGES.map((l) => l.code),
      nonExplicitSupportedLngs: true, // de-AT, de-CH → de
      fallbackLng: 'en',
      load: 'languageOnly',
      // Natural-language ids: '.' and ':' are ordinary characters in them.
      keySeparator: false,
      nsSeparator: false,
      returnEmptyString: false,
      interpolation: { escapeValue: false }, // React escapes what it renders
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: LANGUAGE_KEY,
        caches: [], // only a choice made in Settings is kept (setLanguage)
      },
      initAsync: false, // the catalogues are bundled: ready before the first render
      react: { useSuspense: false },
    });
}

const showLanguage = (lng: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
};
showLanguage(currentLanguage());
i18n.on('languageChanged', () => showLanguage(currentLanguage()));

/** The language shown now. */
export function currentLanguage(): Language {
  const base = (i18n.language ?? 'en').toLowerCase().split('-')[0];
  return LANGUAGES.find((l) => l.code === base)?.code ?? 'en';
}

/** The choice made in Settings on this device, or 'browser' when none is. */
export function languageChoice(): Language | 'browser' {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    return LANGUAGES.some((l) => l.code === stored) ? (stored as Language) : 'browser';
  } catch {
    return 'browser';
  }
}

/** Shows the app in `choice` from now on, on this device; 'browser' follows the browser again. */
export async function setLanguage(choice: Language | 'browser'): Promise<void> {
  try {
    if (choice === 'browser') localStorage.removeItem(LANGUAGE_KEY);
    else localStorage.setItem(LANGUAGE_KEY, choice);
  } catch {
    // Storage refused (a private window's quota): the choice holds for this page only.
  }
  if (choice !== 'browser') {
    await i18n.changeLanguage(choice);
    return;
  }
  const detector = i18n.services.languageDetector as {
    detect: () => string | string[] | undefined;
  };
  const detected = detector.detect();
  await i18n.changeLanguage(Array.isArray(detected) ? detected[0] : detected);
}

/**
 * Marks a text kept in a constant (a list of labels, a table of messages) as one to translate;
 * returns it unchanged. Show it with t(text) when rendering: the catalogue test finds a literal
 * passed to msg() as it finds one passed to t().
 */
export const msg = <T extends string>(text: T): T => text;

export { i18n, Trans, useTranslation };
