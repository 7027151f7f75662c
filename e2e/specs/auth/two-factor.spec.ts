// Two-factor sign-in end to end: enrolment in the settings with the QR code and the secret shown,
// confirming with a TOTP code the test computes (otpauth), the backup codes, then a sign-in that
// asks for the code, one with a backup code, a Google sign-in that asks for it too, and turning
// it off with the password.
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  continueWithGoogle,
  createVerifiedUser,
  newUser,
  signInWithForm,
  signOut,
} from '../../support/accounts.ts';

test.describe.configure({ timeout: 120_000 }); // the codes may wait for the clock

const totpFor = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret.replace(/\s+/g, '')), digits: 6, period: 30 });

/**
 * The next code to type: each code works once per account (a time step at or before the last one
 * used is refused), and the server takes the current step or the one after it. So each call moves
 * one step on, waiting for the clock when that step is not yet within reach.
 */
function codesOf(totp: TOTP) {
  let last = -Infinity;
  return async () => {
    const now = Math.floor(Date.now() / 30_000);
    const step = Math.max(now, last + 1);
    if (step > now + 1)
      await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - Date.now() + 500));
    last = step;
    return totp.generate({ timestamp: step * 30_000 + 1_000 });
  };
}

async function submitCode(page: Page, label: string, code: string) {
  await page.getByLabel(label).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

test('enrols with a TOTP app and signs in with a code', async ({ page, request, baseURL }) => {
  const user = newUser('totp');
  await createVerifiedUser(request, baseURL ?? '', user);
  await page.goto('/dashboard?view=settings');
  await signInWithForm(page, user);
  await expect(page.getByText('Two-factor sign-in is off')).toBeVisible();

  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret.replace(/\s+/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
  const nextCode = codesOf(totpFor(secret));

  await dialog.getByLabel('Code from the app').fill('000000');
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await dialog.getByLabel('Code from the app').fill(await nextCode());
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const codes = dialog.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
  await expect(codes.first()).toBeVisible();
  const backupCode = (await codes.first().textContent()) ?? '';
  expect(await codes.count()).toBeGreaterThanOrEqual(8);
  await dialog.getByRole('button', { name: 'I have saved my backup codes' }).click();
  await expect(page.getByText('Two-factor sign-in is on')).toBeVisible();

  // Sign-in now asks for the code.
  await signOut(page);
  await page.goto('/auth');
  await signInWithForm(page, user);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await submitCode(page, 'Authentication code', '123');
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  await submitCode(page, 'Authentication code', await nextCode());
  await expect(page).toHaveURL(/\/dashboard$/);

  // A backup code works too, once.
  await signOut(page);
  await page.goto('/auth');
  await signInWithForm(page, user);
  await page.getByRole('button', { name: 'Use a backup code' }).click();
  await submitCode(page, 'Backup code', backupCode);
  await expect(page).toHaveURL(/\/dashboard$/);

  // Google sign-in of the same (verified) e-mail asks for the code too, and offers no 'trust'.
  await signOut(page);
  await page.goto('/auth');
  await continueWithGoogle(page, user);
  await expect(page).toHaveURL(/\/auth\?step=two-factor$/);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page.getByText('Trust this device')).toHaveCount(0);
  await submitCode(page, 'Authentication code', await nextCode());
  await expect(page).toHaveURL(/\/dashboard$/);

  // Turning it off needs the password.
  await page.goto('/dashboard?view=settings');
  await page.getByRole('button', { name: 'Turn off' }).click();
  const off = page.getByRole('dialog', { name: 'Turn off two-factor sign-in' });
  await off.getByLabel('Password', { exact: true }).fill('not the password');
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(off.getByRole('alert')).toBeVisible();
  await off.getByLabel('Password', { exact: true }).fill(user.password);
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Two-factor sign-in is off')).toBeVisible();
});
