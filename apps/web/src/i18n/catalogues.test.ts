// The catalogues against the code (issue 33, item 7): every text the app passes to t() and every
// message of the protocol the app shows has a German translation with the same {{placeholders}},
// and no translation is left over for a text the app no longer has. A text built with ${…}
// inside t() could never be translated, so it fails too.
import fs from 'node:fs';
import path from 'node:path';
import * as protocol from '@sealvault/protocol';
import { expect, it } from 'vitest';
import { currentLanguage, i18n, setLanguage } from './i18n.ts';
import { formatDate, formatNumber } from './format.ts';

const src = path.resolve(import.meta.dirname, '..');
const locales = path.join(import.meta.dirname, 'locales');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const at = path.join(dir, e.name);
    if (e.isDirectory()) return sources(at);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [at] : [];
  });
}

/**
 * The literal first arguments of t(...), i18n.t(...) and msg(...), and <Trans i18nKey="...">, in
 * the app's code.
 */
function textsInCode(root: string) {
  const texts = new Set<string>();
  const built: string[] = [];
  const call =
    /(?:\b(?:t|msg)\(\s*|\bi18nKey=\{?\s*)(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\])*)`)/g;
  for (const file of sources(root)) {
    const code = fs.readFileSync(file, 'utf8');
    for (const m of code.matchAll(call)) {
      const raw = m[1] ?? m[2] ?? m[3]!;
      if (m[3] !== undefined && raw.includes('${'))
        built.push(`${path.relative(src, file)}: ${raw}`);
      // The literal's value, as JavaScript reads it (\' \" \n \u2019 ...).
      texts.add(JSON.parse(`"${raw.replace(/\\(['"`])/g, '$1').replace(/"/g, '\\"')}"`) as string);
    }
  }
  return { texts, built };
}

/** Every message text the protocol exports (its …Messages objects, its plans' and landing page's texts), which the app shows. */
function protocolTexts(): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const [name, value] of Object.entries(protocol)) if (/[mM]essages$/.test(name)) walk(value);
  // The plans' descriptions and feature lines, as seeded (an operator's own stay as written).
  for (const plan of protocol.FALLBACK_PLANS) [plan.description, ...plan.features].forEach(walk);
  // The landing page's default claims, likewise (an operator's own stay as written; names too).
  const { stats, testimonials } = protocol.LANDING_DEFAULTS;
  stats.forEach(({ value, label }) => [value, label].forEach(walk));
  testimonials.forEach(({ quote, role }) => [quote, role].forEach(walk));
  return out;
}

function catalogue(language: string): Record<string, string> {
  const dir = path.join(locales, language);
  const merged: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    Object.assign(merged, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  }
  return merged;
}

const placeholders = (s: string) =>
  [...s.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]).sort();

// I18N_ONLY=files/ (a folder under src/) lists what that folder still lacks, and checks nothing
// else: for working on one part of the app.
const only = process.env.I18N_ONLY;

it.runIf(only)(`lists what ${only ?? ''} lacks`, () => {
  const { texts, built } = textsInCode(path.join(src, only ?? ''));
  const de = catalogue('de');
  const missing = [...texts].filter((t) => !de[t]?.trim());
  console.log(JSON.stringify({ built, missing }, null, 2));
  expect([...built, ...missing]).toEqual([]);
});

it.skipIf(only)(
  'has a German translation of every text, with the same placeholders, and none left over',
  () => {
    const { texts, built } = textsInCode(src);
    expect(built, 'texts built with ${…} inside t(): use {{placeholders}}').toEqual([]);
    const wanted = new Set([...texts, ...protocolTexts()]);
    const de = catalogue('de');
    const missing = [...wanted].filter((t) => !de[t]?.trim());
    expect(missing, 'English texts with no German translation').toEqual([]);
    const unused = Object.keys(de).filter((t) => !wanted.has(t));
    expect(unused, 'German translations of texts the app no longer has').toEqual([]);
    const mismatched = Object.entries(de).filter(
      ([en, text]) => placeholders(en).join() !== placeholders(text).join(),
    );
    expect(mismatched, 'translations whose {{placeholders}} differ').toEqual([]);
  },
);

it.skipIf(only)(
  'switches language, keeps the choice on this device, and formats for the language',
  async () => {
    const store = new Map<string, string>();
    globalThis.localStorage ??= {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    } as Storage;
    await setLanguage('de');
    expect(currentLanguage()).toBe('de');
    expect(localStorage.getItem('sealvault.language')).toBe('de');
    expect(i18n.t('A text with no translation')).toBe('A text with no translation');
    expect(formatNumber(12345.5)).toBe('12.345,5');
    expect(formatDate('2026-03-04T12:00:00Z', { timeZone: 'UTC' })).toBe('4.3.2026');
    await setLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(formatNumber(12345.5)).toBe('12,345.5');
    await setLanguage('browser');
    expect(localStorage.getItem('sealvault.language')).toBeNull();
  },
);
