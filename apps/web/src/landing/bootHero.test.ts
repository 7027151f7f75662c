// [Note: landing hero before the app]: index.html's English hero must say what Hero.tsx says (a
// changed text would otherwise flash the old one), and public/theme-init.js must show it only at
// / and only when the page starts in English, as i18n.ts chooses the language.
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('the landing hero of index.html', () => {
  const html = squash(read('../../index.html'));
  const hero = squash(read('./Hero.tsx'));

  it('carries the texts of Hero.tsx', () => {
    const paragraph = /t\(\s*'(SealVault encrypts[^']+)'/.exec(hero)?.[1];
    expect(paragraph).toBeDefined();
    expect(html).toContain(`> ${paragraph} </p>`);
    expect(hero).toContain('Your files and secrets, <accent>sealed on your device</accent>');
    expect(html).toContain(
      'Your files and secrets, <span class="text-indigo-600 dark:text-indigo-400">sealed on your device</span>',
    );
    expect(hero).toContain("t('End-to-end encrypted')");
    expect(html).toContain('</span>End-to-end encrypted </p>');
  });
});

describe('theme-init.js chooses whether the hero shows', () => {
  const script = read('../../public/theme-init.js');

  function shows(path: string, languages: string[], stored: string | null = null): boolean {
    const classes = new Set<string>();
    runInNewContext(script, {
      location: { pathname: path, search: '' },
      URLSearchParams,
      navigator: { languages, language: languages[0] },
      localStorage: { getItem: (key: string) => (key === 'sealvault.language' ? stored : null) },
      window: {},
      document: {
        documentElement: {
          classList: {
            toggle: () => undefined,
            add: (name: string) => classes.add(name),
          },
          style: {},
        },
      },
    });
    return classes.has('boot-hero');
  }

  it('shows it at / in English, or with no language of ours', () => {
    expect(shows('/', ['en-US', 'de'])).toBe(true);
    expect(shows('/', ['fr-FR'])).toBe(true);
    expect(shows('/', ['fr-FR', 'en'])).toBe(true);
  });

  it('hides it when the page starts in German', () => {
    expect(shows('/', ['de-AT', 'en'])).toBe(false);
    expect(shows('/', ['fr-FR', 'de'])).toBe(false);
    expect(shows('/', ['en-US'], 'de')).toBe(false);
  });

  it('follows the language chosen in Settings over the browser', () => {
    expect(shows('/', ['de-DE'], 'en')).toBe(true);
  });

  it('hides it on every other path', () => {
    expect(shows('/auth', ['en-US'])).toBe(false);
    expect(shows('/dashboard', ['en-US'])).toBe(false);
  });
});
