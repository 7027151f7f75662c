// The second language (issue 33, item 7): with German chosen, every main screen shows German,
// with no English left, and nothing runs off a 360 px screen. "English left" is found two ways:
// a text (or an aria-label, placeholder, title, alt) that is an English message the German
// catalogue translates otherwise, and a word that can only be English. Names the test gives
// (vaults, a file, the account) are German-neutral so they do not count.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createVault, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';

const dir = path.resolve(import.meta.dirname, '../../../apps/web/src/i18n/locales/de');
const german: Record<string, string> = {};
for (const f of fs.readdirSync(dir).filter((name) => name.endsWith('.json'))) {
  Object.assign(german, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}
/** A vault's card on the dashboard, whose list is named in German (vaultCard's, in German). */
const card = (page: Page, name: string) =>
  page
    .getByRole('list', { name: de('Vaults') })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

/** The German of an English message, as the app shows it. */
const de = (en: string): string => {
  const text = german[en];
  if (!text) throw new Error(`no German for "${en}"`);
  return text;
};

const ENGLISH_ONLY =
  /\b(the|and|your|you|with|this|that|files|vaults?|password|settings|upload|download|delete|cancel|save|create|search|sign|lock|unlock|open|secrets?|storage|account|show|hide|copy|edit|remove|back|next|close|empty|items?|trash|folder|subscription|usage|from|choose|select|connect|manage|learn|here|what|how|when|are|not|yet)\b/i;

/** The English left on the page, and how far it runs off the screen sideways. */
async function englishLeft(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const text = n.textContent?.trim();
      if (!text || !parent || !visible(parent)) continue;
      if (parent.closest('[data-user-content], script, style, code, kbd, [translate="no"]'))
        continue;
      out.push(text);
    }
    for (const el of document.body.querySelectorAll(
      '[aria-label], [placeholder], [title], [alt]',
    )) {
      for (const a of ['aria-label', 'placeholder', 'title', 'alt']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    return out;
  });
  const names = /Reiseunterlagen|Zugänge|karte\.txt|E2E sprache \w+|@example\.test|SealVault/g;
  const found = new Set<string>();
  for (const text of texts) {
    if (german[text] && german[text] !== text) found.add(text);
    else if (ENGLISH_ONLY.test(text.replace(names, ''))) found.add(text);
  }
  return [...found];
}

async function check(page: Page, screen: string) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, `${screen} runs ${overflow} px off a 360 px screen`).toBeLessThanOrEqual(0);
  expect(await englishLeft(page), `English left on ${screen}`).toEqual([]);
}

test('in German, every main screen shows German with no English left and fits 360 px', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // The screens before sign-in, in a browser whose language is German.
  const visitor = await browser.newContext({
    locale: 'de-DE',
    viewport: { width: 360, height: 800 },
  });
  const guest = await visitor.newPage();
  await guest.goto(baseURL!);
  await check(guest, 'the landing page');
  await guest.goto(`${baseURL!}/auth`);
  await expect(guest.getByRole('heading', { name: de('Welcome back') })).toBeVisible();
  await check(guest, 'the sign-in page');
  await guest.goto(`${baseURL!}/auth?step=signup`);
  await check(guest, 'the sign-up page');
  await visitor.close();

  // Signed in, in English: two vaults and a file; then German is chosen in Settings.
  await signedIn(page, request, baseURL!, 'sprache');
  await createVault(page, { name: 'Reiseunterlagen', type: 'File vault' });
  await createVault(page, { name: 'Zugänge', type: 'Secrets vault' });
  await page.goto('/dashboard?view=settings');
  await page.getByRole('radio', { name: 'Deutsch' }).check();
  await expect(page.getByRole('heading', { name: de('Language') })).toBeVisible();
  await page.setViewportSize({ width: 360, height: 800 });
  await check(page, 'Settings');

  await page.goto('/dashboard');
  await expect(card(page, 'Reiseunterlagen')).toBeVisible();
  await check(page, 'the dashboard');

  await page.goto('/dashboard?view=subscription');
  // Checked once the plan and the plans to choose from are in (they load after the heading).
  await expect(page.getByTestId('current-plan-name')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pro', exact: true })).toBeVisible();
  await check(page, 'Subscription');

  // The file vault: the unlock dialog, then the file list with a file in it.
  await page.goto('/dashboard');
  await card(page, 'Reiseunterlagen')
    .getByRole('link', { name: 'Reiseunterlagen', exact: true })
    .click();
  const unlock = page.getByRole('dialog', { name: de('Unlock Vault') });
  await check(page, 'the unlock dialog');
  await unlock.getByLabel(de('Vault password')).fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: de('Unlock'), exact: true }).click();
  await expect(page.getByRole('button', { name: de('Lock Vault') })).toBeVisible({
    timeout: 15_000,
  });
  await check(page, 'an empty file vault');
  await page.setViewportSize({ width: 1280, height: 800 });
  await uploadGerman(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await check(page, 'a file vault with a file');

  // The secrets vault, empty.
  await page.goto('/dashboard');
  await card(page, 'Zugänge').getByRole('link', { name: 'Zugänge', exact: true }).click();
  await unlock.getByLabel(de('Vault password')).fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: de('Unlock'), exact: true }).click();
  await expect(page.getByRole('button', { name: de('Lock Vault') })).toBeVisible({
    timeout: 15_000,
  });
  await check(page, 'a secrets vault');

  // Back to English: the switch's own label is the same in both.
  await page.goto('/dashboard?view=settings');
  await page.getByRole('radio', { name: 'English' }).check();
  await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

/** uploadByPicker, with the dialog's German names. */
async function uploadGerman(page: Page) {
  await page.getByRole('button', { name: de('Upload Files') }).click();
  const dialog = page.getByRole('dialog', { name: de('Upload Files') });
  await dialog
    .getByLabel(de('Choose files to upload'))
    .setInputFiles([{ name: 'karte.txt', mimeType: 'text/plain', buffer: Buffer.from('Karte') }]);
  await dialog.getByRole('button', { name: de('Upload'), exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText('karte.txt').first()).toBeVisible();
}
