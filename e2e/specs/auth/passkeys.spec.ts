// Passkeys end to end (issue 30) in Chromium with a virtual authenticator (the DevTools protocol's
// WebAuthn domain: a platform authenticator with resident keys, user verification and PRF):
// adding a passkey in Settings, signing out and in with it (no password, no second factor),
// renaming and removing it.
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, newUser, signInWithForm, signOut } from '../../support/accounts.ts';

/** A virtual platform authenticator on `page`, answering every ceremony as if touched. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

test('adds a passkey in Settings, signs in with it, renames and removes it', async ({
  page,
  request,
  baseURL,
}) => {
  const authenticator = await virtualAuthenticator(page);
  const user = newUser('passkey');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/dashboard?view=settings');
  await signInWithForm(page, user);

  const panel = page.getByRole('region', { name: 'Passkeys' });
  await expect(panel.getByText('No passkeys yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByLabel('Passkey name').fill('Test laptop');
  await add.getByRole('button', { name: 'Continue' }).click();
  await expect(add).toBeHidden();
  await expect(panel.getByText('Test laptop')).toBeVisible();
  await expect(panel.getByText('Never used')).toBeVisible();
  const [credential] = await authenticator.credentials();
  expect(credential?.isResidentCredential).toBe(true);

  await signOut(page);
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  await page.goto('/dashboard?view=settings');
  await expect(panel.getByText(/Last used/)).toBeVisible();
  await panel.getByRole('button', { name: 'Rename passkey Test laptop' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename passkey' });
  await rename.getByLabel('Passkey name').fill('   ');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename.getByText('Please enter a name for this passkey.')).toBeVisible();
  await rename.getByLabel('Passkey name').fill('Work laptop');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByText('Work laptop')).toBeVisible();

  await panel.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  await page
    .getByRole('dialog', { name: 'Remove passkey?' })
    .getByRole('button', { name: 'Remove passkey' })
    .click();
  await expect(panel.getByText('No passkeys yet.')).toBeVisible();

  // The passkey still on the device no longer signs in, and the page says why.
  await signOut(page);
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(
    page.getByText('This passkey is not registered with SealVault.', { exact: false }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
});
