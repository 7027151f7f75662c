// The error paths of connecting Dropbox and Google Drive (issue 16, "Errors"): consent denied, the
// popup closed or blocked, a forged state. Each says the spec's words, and Connect works again afterwards. The
// sign-in page's answers are made by routes in this browser, not by the shared emulator, so that
// the specs running beside this one are not affected. (The upload errors: cloud-vault.spec.ts.)
import { expect, test, type Route } from '@playwright/test';
import { cloudCard, connectCloud, unlimitedUser } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

test('a failed Dropbox connection says why, and Connect works again', async ({
  page,
  request,
  baseURL,
}) => {
  await unlimitedUser(page, request, baseURL!, 'cloud-connect-errors');
  const card = await cloudCard(page, 'Dropbox');

  // Consent denied at Dropbox: its page sends the user back with error=access_denied.
  const answer = (query: (state: string) => string) => (route: Route) => {
    const state = new URL(route.request().url()).searchParams.get('state') ?? '';
    return route.fulfill({
      status: 302,
      headers: { location: `${baseURL}/dropbox-auth?${query(state)}` },
    });
  };
  await page.context().route(
    '**/oauth2/authorize**',
    answer((state) => `error=access_denied&state=${state}`),
  );
  const [denied] = await Promise.all([
    page.waitForEvent('popup'),
    card.getByRole('button', { name: 'Connect' }).click(),
  ]);
  await denied.waitForEvent('close');
  const failed = page
    .getByRole('region', { name: 'Cloud Storage Settings' })
    .getByRole('region', { name: 'Connection Failed' });
  await expect(failed).toContainText('Authentication failed. Please try again.');

  // The user closes the popup before answering (a sign-in page that waits for them).
  await page
    .context()
    .route('**/oauth2/authorize**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Sign in</title><p>Sign in</p>' }),
    );
  const [closed] = await Promise.all([
    page.waitForEvent('popup'),
    failed.getByRole('button', { name: 'Connect' }).click(),
  ]);
  await closed.close();
  await expect(failed).toContainText('Failed to connect to Dropbox');

  // An answer whose state is not the one sent (a forged or stale sign-in).
  await page.context().unroute('**/oauth2/authorize**');
  await page.context().route(
    '**/oauth2/authorize**',
    answer(() => 'code=forged&state=not-ours'),
  );
  const [forged] = await Promise.all([
    page.waitForEvent('popup'),
    failed.getByRole('button', { name: 'Connect' }).click(),
  ]);
  await forged.waitForEvent('close');
  await expect(failed).toContainText('Authentication failed. Please try again.');
  await page.context().unroute('**/oauth2/authorize**');

  // A blocked popup.
  await page.evaluate(() => {
    window.open = () => null;
  });
  await failed.getByRole('button', { name: 'Connect' }).click();
  await expect(failed).toContainText(
    'Authentication failed. The popup may have been blocked by your browser. Please allow popups for this site and try again.',
  );

  // Nothing was lost: a normal connection works.
  await connectCloud(page, 'Dropbox');
});

test('a failed Google Drive connection says why, and Connect works again', async ({
  page,
  request,
  baseURL,
}) => {
  await unlimitedUser(page, request, baseURL!, 'cloud-drive-errors');
  const card = await cloudCard(page, 'Google Drive');
  const failed = page
    .getByRole('region', { name: 'Cloud Storage Settings' })
    .getByRole('region', { name: 'Connection Failed' });
  const signInPage = '**/o/oauth2/v2/auth**';
  // Google's page sends the user back with the answer in the fragment.
  const answer = (fragment: (state: string) => string) => (route: Route) => {
    const state = new URL(route.request().url()).searchParams.get('state') ?? '';
    return route.fulfill({
      status: 302,
      headers: { location: `${baseURL}/google-auth#${fragment(state)}` },
    });
  };

  await page.context().route(
    signInPage,
    answer((state) => `error=access_denied&state=${state}`),
  );
  const [denied] = await Promise.all([
    page.waitForEvent('popup'),
    card.getByRole('button', { name: 'Connect' }).click(),
  ]);
  await denied.waitForEvent('close');
  await expect(failed).toContainText('Google Drive authentication failed.');
  await page.context().unroute(signInPage);

  await page
    .context()
    .route(signInPage, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Sign in</title><p>Sign in</p>' }),
    );
  const [closed] = await Promise.all([
    page.waitForEvent('popup'),
    failed.getByRole('button', { name: 'Connect' }).click(),
  ]);
  await closed.close();
  await expect(failed).toContainText('Failed to connect to Google Drive');
  await page.context().unroute(signInPage);

  await page.evaluate(() => {
    window.open = () => null;
  });
  await failed.getByRole('button', { name: 'Connect' }).click();
  await expect(failed).toContainText('The popup may have been blocked by your browser.');

  await connectCloud(page, 'Google Drive');
});
