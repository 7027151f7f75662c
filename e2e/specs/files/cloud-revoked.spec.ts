// A cloud token revoked while a vault is open (issue 26): the user removed SealVault's access in
// their account, or the provider revoked it. The next preview or download meets the provider's
// "unauthorised", the silent renewal fails, the connection is forgotten, and the vault's page
// says so in the spec's words ('{provider} Not Connected', 'Please connect {provider} to
// upload/download/delete files.') with 'Connect {provider}' right there. Connecting again (the
// emulator consents at once) takes the prompt away and the file previews, without a reload.
// Only this page's token is revoked at the emulator, so the specs running beside this one keep
// theirs.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { emulatorControl } from '../../support/constants.ts';
import { errorToasts } from '../../support/toasts.ts';
import { createVault, openAndUnlock } from '../../support/vaults.ts';
import { connectCloud, fileRow, openPreview, unlimitedUser, uploadByPicker } from './helpers.ts';

test.describe.configure({ timeout: 150_000 });

const NOTE = 'Tide table for the north jetty: high water 06:12 and 18:40.\n';

/** The spec's prompt on the vault page, and its Connect button. */
const promptOf = (scope: Page | Locator, name: string) =>
  scope.getByRole('alert', { name: `${name} Not Connected` });

/** Revokes the token this page holds at the provider's emulator (the user removed the access). */
async function revokeToken(page: Page, id: 'dropbox' | 'googledrive'): Promise<void> {
  if (id === 'dropbox') {
    const token = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('sealvault.dropbox')!) as { accessToken: string })
          .accessToken,
    );
    // Dropbox's own revoke: the token, its refresh token and every token of that refresh token.
    const origin = emulatorControl.dropbox().replace(/\/__emulator$/, '');
    const res = await fetch(`${origin}/2/auth/token/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.ok).toBe(true);
  } else {
    const token = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('sealvault.googledrive')!) as { access_token: string })
          .access_token,
    );
    const res = await fetch(`${emulatorControl.googledrive()}/tokens/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(res.ok).toBe(true);
  }
}

/** Screenshots of the prompt in the light and the dark theme, checked with axe in both. */
async function lookAtPrompt(page: Page, prompt: Locator, id: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate(
      (dark) => document.documentElement.classList.toggle('dark', dark),
      scheme === 'dark',
    );
    await prompt.screenshot({ path: test.info().outputPath(`prompt-${id}-${scheme}.png`) });
    await page.screenshot({ path: test.info().outputPath(`page-${id}-${scheme}.png`) });
    const found = await new AxeBuilder({ page })
      .include('main')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(found.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** Signs in, connects the provider, and opens a new files vault there holding one note. */
async function vaultWithNote(
  page: Page,
  request: Parameters<typeof unlimitedUser>[1],
  baseURL: string,
  p: { id: 'dropbox' | 'googledrive'; name: 'Dropbox' | 'Google Drive' },
): Promise<void> {
  await unlimitedUser(page, request, baseURL, `cloud-revoked-${p.id}`);
  await connectCloud(page, p.name);
  await page.goto('/dashboard');
  await createVault(page, { name: 'Tide Tables', type: 'File vault', provider: p.name });
  await openAndUnlock(page, 'Tide Tables');
  await uploadByPicker(page, [
    { name: 'tides.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTE) },
  ]);
  await expect(promptOf(page, p.name)).toHaveCount(0);
}

test('Dropbox revoked mid-session: a preview says so, the page prompts, Connect brings the files back', async ({
  page,
  request,
  baseURL,
}) => {
  await vaultWithNote(page, request, baseURL!, { id: 'dropbox', name: 'Dropbox' });
  await revokeToken(page, 'dropbox');

  // The preview fails with the provider's words, and offers Connect in the dialog too.
  const preview = await openPreview(page, 'tides.txt');
  await expect(preview.getByText('Dropbox not connected', { exact: true })).toBeVisible();
  await expect(
    promptOf(preview, 'Dropbox').getByRole('button', { name: 'Connect Dropbox' }),
  ).toBeVisible();
  await preview.getByRole('button', { name: 'Close' }).click();

  // The vault page shows the spec's prompt with its Connect button, reachable by keyboard.
  const prompt = promptOf(page, 'Dropbox');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('Please connect Dropbox to upload/download/delete files.');
  const connect = prompt.getByRole('button', { name: 'Connect Dropbox' });
  await connect.focus();
  await expect(connect).toBeFocused();
  await lookAtPrompt(page, prompt, 'dropbox');

  const [popup] = await Promise.all([page.waitForEvent('popup'), connect.click()]);
  await expect(prompt).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(page.getByRole('heading', { name: 'Files' })).toBeFocused();

  const again = await openPreview(page, 'tides.txt');
  await expect(again.getByText('high water 06:12')).toBeVisible();
});

test('Google Drive revoked mid-session: a download says so, the page prompts, Connect in the preview loads it', async ({
  page,
  request,
  baseURL,
}) => {
  await vaultWithNote(page, request, baseURL!, { id: 'googledrive', name: 'Google Drive' });
  await revokeToken(page, 'googledrive');

  // The download fails with the provider's words; the page shows the prompt (not only a toast).
  await fileRow(page, 'tides.txt').getByRole('button', { name: 'Download tides.txt' }).click();
  await expect(errorToasts(page).filter({ hasText: 'Google Drive not connected' })).toBeVisible();
  const prompt = promptOf(page, 'Google Drive');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText(
    'Please connect Google Drive to upload/download/delete files.',
  );
  await expect(prompt.getByRole('button', { name: 'Connect Google Drive' })).toBeEnabled();
  await lookAtPrompt(page, prompt, 'googledrive');

  // A preview now fails the same way; Connect right in the dialog, and it loads.
  const preview = await openPreview(page, 'tides.txt');
  await expect(preview.getByText('Google Drive not connected', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('preview-googledrive.png') });
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    promptOf(preview, 'Google Drive').getByRole('button', { name: 'Connect Google Drive' }).click(),
  ]);
  await expect(preview.getByText('high water 06:12')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => popup.isClosed()).toBe(true);
  await preview.getByRole('button', { name: 'Close' }).click();
  await expect(prompt).toHaveCount(0);
  await expect(fileRow(page, 'tides.txt')).toBeVisible();
});
