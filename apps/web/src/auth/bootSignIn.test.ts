// [Note: sign-in card before the app]: index.html's picture of /auth's sign-in card must say
// what the app's card says, in English and German (a changed text would otherwise flash the old
// one), and public/theme-init.js must show it only at the sign-in step, where React's first
// render draws that same card. The German check covers every frame of index.html (the dashboard's
// too): each English text beside a German one is the catalogue's pair.
import { readdirSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const html = squash(read('../../index.html'));

const german = Object.fromEntries(
  readdirSync(new URL('../i18n/locales/de/', import.meta.url)).flatMap((file) =>
    Object.entries(JSON.parse(read(`../i18n/locales/de/${file}`)) as Record<string, string>),
  ),
);

/** Each `<… class="boot-en">English</…><… class="boot-de">Deutsch</…>` pair of index.html. */
function pairs(markup: string): [string, string][] {
  const texts = /<span class="boot-en"\s*>([^<]+)<\/span\s*><span class="boot-de"\s*>([^<]+)</g;
  const fields =
    /<input [^>]*class="boot-en [^"]*" placeholder="([^"]+)" \/><input [^>]*class="boot-de [^"]*" placeholder="([^"]+)"/g;
  return [...markup.matchAll(texts), ...markup.matchAll(fields)].map((m) => [
    squash(m[1]!),
    squash(m[2]!),
  ]);
}

describe("index.html's frames", () => {
  const card = html.slice(
    html.indexOf('<div id="boot-auth"'),
    html.indexOf('<span id="boot-parsed"'),
  );

  it("carry the sign-in card's texts, as AuthPage and SignInForm write them", () => {
    const sources = squash(
      read('./AuthPage.tsx') +
        read('./SignInForm.tsx') +
        read('./GoogleButton.tsx') +
        read('../components/Logo.tsx'),
    );
    const english = pairs(card).map(([en]) => en);
    expect(english).toEqual([
      'Welcome back',
      'Sign in to your vault space',
      'Email',
      'Password',
      'Forgot password?',
      'Sign in',
      'Sign in with a passkey',
      'or',
      'Continue with Google',
      "Don't have an account? Sign up",
      'Back to home',
      'you@example.com',
    ]);
    for (const text of english) expect(sources).toContain(text);
  });

  it('carry the German catalogue’s words for each English text', () => {
    const all = pairs(html);
    expect(all.length).toBeGreaterThan(12);
    for (const [en, de] of all) expect({ en, de }).toEqual({ en, de: german[en] });
  });
});

describe('theme-init.js chooses whether the sign-in card shows', () => {
  const script = read('../../public/theme-init.js');

  function classes(
    url: string,
    {
      languages = ['en-US'],
      signedIn = false,
      webAuthn = true,
      server = undefined as '0' | '1' | undefined,
      google = '0',
    } = {},
  ): Set<string> {
    const { pathname, search } = new URL(url, 'http://localhost');
    const shown = new Set<string>();
    // The page's navigation entry, with the server's session hint where it gave one.
    const serverTiming =
      server === undefined
        ? []
        : [
            { name: 'session', description: server },
            { name: 'google', description: google },
          ];
    runInNewContext(script, {
      location: { pathname, search },
      URLSearchParams,
      performance: { getEntriesByType: () => [{ serverTiming }] },
      navigator: { languages, language: languages[0] },
      localStorage: {
        getItem: (key: string) => (key === 'sealvault.signedIn' && signedIn ? '1' : null),
      },
      window: webAuthn ? { PublicKeyCredential: function PublicKeyCredential() {} } : {},
      document: {
        documentElement: {
          classList: { toggle: () => undefined, add: (name: string) => shown.add(name) },
          style: {},
        },
      },
    });
    return shown;
  }

  it('shows it at the sign-in step, with or without a remembered location', () => {
    for (const url of ['/auth', '/auth?next=%2Fsettings', '/auth?mode=signin&next=%2Fx']) {
      expect(classes(url).has('boot-auth'), url).toBe(true);
    }
  });

  it('not where React draws another card or a notice above it', () => {
    for (const url of [
      '/auth?mode=signup',
      '/auth?step=forgot',
      '/auth?step=reset&token=t',
      '/auth?step=two-factor',
      '/auth?verified=1',
      '/auth?error=account_not_linked',
      '/auth?email=a%40b.c',
      '/auth?invite=abc',
      '/auth/other',
    ]) {
      expect(classes(url).has('boot-auth'), url).toBe(false);
    }
  });

  it('not on a device whose last session check found a session', () => {
    expect(classes('/auth', { signedIn: true }).has('boot-auth')).toBe(false);
  });

  it("takes the server's word on the session cookie over the local hint", () => {
    // [Note: session hint in Server-Timing]
    expect(classes('/auth', { server: '1' }).has('boot-auth')).toBe(false);
    expect(classes('/dashboard', { server: '1' }).has('boot-dashboard')).toBe(true);
    expect(classes('/auth', { server: '0', signedIn: true }).has('boot-auth')).toBe(true);
    expect(classes('/dashboard', { server: '0', signedIn: true }).has('boot-dashboard')).toBe(
      false,
    );
    // Without the server's word (a proxy dropped the header), the local hint decides.
    expect(classes('/dashboard', { signedIn: true }).has('boot-dashboard')).toBe(true);
    expect(classes('/dashboard').has('boot-dashboard')).toBe(false);
  });

  it('in German where the page starts in German', () => {
    expect([...classes('/auth', { languages: ['de-DE'] })]).toEqual(['boot-auth', 'boot-de']);
  });

  it("with the Google button where the server's answer says Google sign-in is configured", () => {
    expect(classes('/auth', { server: '0', google: '1' }).has('boot-google')).toBe(true);
    expect(classes('/auth', { server: '0' }).has('boot-google')).toBe(false);
    expect(classes('/dashboard', { server: '1', google: '1' }).has('boot-google')).toBe(false);
  });

  it('without the passkey button where the browser has no WebAuthn', () => {
    expect(classes('/auth').has('boot-no-passkey')).toBe(false);
    expect(classes('/auth', { webAuthn: false }).has('boot-no-passkey')).toBe(true);
  });
});
