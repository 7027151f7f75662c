// The UI's languages (issue 33, item 7), on i18next. Messages are gettext style: a message's id is
// its English text, word for word (the spec's texts), so English is the source catalogue and
// needs no file; `locales/<language>/*.json` map each English text to its translation. The files
// are split by area of the app (auth.json, files.json, ...) only so that they stay readable; they
// are merged into one namespace (`locales/<language>.ts`, loaded when the language is shown), so
// a text has one translation wherever it appears.
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
// One chunk per language, loaded only when that language is shown: English, the source, needs
// none, and most visitors never pay for German (its 137 KiB were a sixth of the start-up
// JavaScript: bench/RESULTS.md, "Lighthouse").
const catalogues = import.meta.glob<Catalogue>('./locales/*.ts', { import: 'default' });

/** Loads the catalogue of `language` into i18next once (nothing for English). */
async function loadCatalogue(language: string): Promise<void> {
  const load = catalogues[`./locales/${language}.ts`];
  if (!load || i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await load());
}

if (!i18n.isInitialized) {
  void i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources: {},
      partialBundledLanguages: true, // catalogues are added as they load (loadCatalogue)
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
      initAsync: false, // the language is known at once; its catalogue: i18nReady
      react: { useSuspense: false },
    });
}

/**
 * Resolves once the catalogue of the language shown at start is loaded: main.tsx renders after
 * it, so a German page never flashes English. For English it is already resolved.
 */
export const i18nReady: Promise<void> = loadCatalogue(currentLanguage()).catch(() => {
  // A catalogue that failed to load (offline): the app shows English rather than nothing.
});

const showLanguage = (lng: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
};
showLanguage(currentLanguage());
i18n.on('languageChanged', () => showLanguage(currentLanguage()));

/** The language of ours that `lng` (a tag such as de-AT) is shown in. */
function baseOf(lng: string | undefined): Language {
  const base = (lng ?? 'en').toLowerCase().split('-')[0];
  return LANGUAGES.find((l) => l.code === base)?.code ?? 'en';
}

/** The language shown now. */
export function currentLanguage(): Language {
  return baseOf(i18n.language);
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
    await loadCatalogue(choice);
    await i18n.changeLanguage(choice);
    return;
  }
  const detector = i18n.services.languageDetector as {
    detect: () => string | string[] | undefined;
  };
  const detected = detector.detect();
  const language = Array.isArray(detected) ? detected[0] : detected;
  await loadCatalogue(baseOf(language));
  await i18n.changeLanguage(language);
}

/**
 * Marks a text kept in a constant (a list of labels, a table of messages) as one to translate;
 * returns it unchanged. Show it with t(text) when rendering: the catalogue test finds a literal
 * passed to msg() as it finds one passed to t().
 */
export const msg = <T extends string>(text: T): T => text;

export { i18n, Trans, useTranslation };
