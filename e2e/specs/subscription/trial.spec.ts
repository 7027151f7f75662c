// Trials (issue 19): a Free account tries a paid plan for 14 days without a card, sees when the
// trial ends, and when it ends without a payment is back on Free, with the vaults over Free's
// limit read-only (nothing deleted) and the subscription page, the dashboard and the vault saying
// so. The end is the server's job, run for this user only (end-trial.ts).
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn } from '../../support/vaults.ts';
import { endTrial, topBarPlan } from './plans.ts';

const READ_ONLY_VAULT =
  "This vault is read-only: your trial ended and it is over the Free plan's limit. Nothing was deleted, and you can still open it and download what it holds. Upgrade to change it again.";

/** A date `days` from now as the page writes it, in the browser's time zone. */
const usDate = (page: Page, days = 0) =>
  page.evaluate(
    (ms) =>
      new Date(Date.now() + ms).toLocaleDateString('en-US', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
      }),
    days * 24 * 3_600_000,
  );

async function addPlainText(page: Page, title: string) {
  await page.getByRole('button', { name: 'Add Plain Text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Plain Text Secret' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('kept in a vault');
  await dialog.getByRole('button', { name: 'Add Plain Text' }).click();
  return dialog;
}

test('a 14-day trial without a card; unpaid at its end, the vaults over Free are read-only', async ({
  page,
  request,
  baseURL,
}) => {
  // Two vaults through the wizard (Argon2id in the browser) take a while on a slow machine.
  test.setTimeout(150_000);
  const user = await signedIn(page, request, baseURL ?? '', 'trial');
  await page.goto('/subscription');
  for (const name of ['Basic', 'Pro', 'Unlimited']) {
    await expect(
      page
        .getByRole('article', { name })
        .getByRole('button', { name: `Start 14-day trial: ${name}` }),
    ).toBeVisible();
  }
  await expect(
    page.getByRole('article', { name: 'Free' }).getByRole('button', { name: /trial/ }),
  ).toHaveCount(0);

  await page.getByRole('button', { name: 'Start 14-day trial: Pro' }).click();
  await expect(page.getByText('Your Pro trial has started.')).toBeVisible();
  const ends = await usDate(page, 14);
  await expect(page.getByTestId('trial-ends')).toHaveText(`Trial ends ${ends}`);
  await expect(page.getByTestId('current-plan-name')).toHaveText('Pro');
  await expect(topBarPlan(page, 'Pro')).toBeVisible();
  // One trial per account.
  await expect(page.getByRole('button', { name: /Start 14-day trial/ })).toHaveCount(0);

  // On Pro, two secrets vaults (Free holds one).
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await createVault(page, { name: 'Logins A', type: 'Secrets vault' });
  await createVault(page, { name: 'Logins B', type: 'Secrets vault' });

  endTrial(user.email);
  await page.goto('/subscription');
  await expect(page.getByTestId('current-plan-name')).toHaveText('Free');
  const lapsed = page.getByTestId('trial-lapsed');
  await expect(lapsed).toContainText(
    'Your Pro trial ended on' /* the date the job ended it: today */,
  );
  await expect(lapsed).toContainText(await usDate(page));
  await expect(
    lapsed.getByRole('list', { name: 'Read-only vaults' }).getByRole('listitem'),
  ).toHaveText(['Logins B']);
  await expect(page.getByRole('button', { name: /Start 14-day trial/ })).toHaveCount(0);
  await expect(topBarPlan(page, 'Free')).toBeVisible();

  // Nothing was deleted; the dashboard says which vault reads only.
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(
    page.getByText("1 vault is over the Free plan's limit and now read-only.", { exact: false }),
  ).toBeVisible();

  // The newer vault opens and says it is read-only; a change is refused with the reason.
  await openAndUnlock(page, 'Logins B');
  await expect(page.getByTestId('vault-read-only')).toHaveText(new RegExp(READ_ONLY_VAULT));
  const refused = await addPlainText(page, 'Door code');
  await expect(refused).toContainText(READ_ONLY_VAULT);
  await refused.getByRole('button', { name: 'Cancel' }).click();

  // The oldest vault of its type stays writable.
  await page.getByRole('button', { name: 'Lock Vault' }).click();
  await openAndUnlock(page, 'Logins A');
  await expect(page.getByTestId('vault-read-only')).toHaveCount(0);
  await expect(await addPlainText(page, 'Door code')).toBeHidden();
  await expect(page.getByRole('article', { name: 'Door code' })).toBeVisible();
});
