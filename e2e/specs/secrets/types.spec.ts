// The item types of issue 20 (payment card, secure note, identity, SSH key, API key) added from
// "Add other", each seen on its card with its sensitive values masked; and a login with further
// websites, a custom field, generator options, the strength meter and a TOTP key whose card shows
// the code otpauth computes for the same second.
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';

test.describe.configure({ timeout: 120_000 });

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

async function addOther(page: Page, type: string) {
  await page.getByRole('button', { name: 'Add other' }).click();
  await page.getByRole('menuitem', { name: type }).click();
  const dialog = page.getByRole('dialog', { name: `Add ${type}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('payment card, secure note, identity, SSH key and API key: added, shown masked, found by search', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'types');
  await createVault(page, { name: 'Everything', type: 'Secrets vault' });
  await openAndUnlock(page, 'Everything');

  let d = await addOther(page, 'Payment Card');
  await d.getByLabel('Title').fill('Travel Visa');
  await d.getByLabel('Cardholder name').fill('Ada Lovelace');
  await d.getByLabel('Card number', { exact: true }).fill('4111 1111 1111 1111');
  await d.getByLabel('Expiry month').fill('7');
  await d.getByLabel('Expiry year').fill('2031');
  await d.getByLabel('Security code', { exact: true }).fill('123');
  await d.getByRole('button', { name: 'Add Payment Card' }).click();
  await expect(d).toBeHidden();
  const visa = card(page, 'Travel Visa');
  await expect(visa.getByText('•••• 1111')).toBeVisible();
  await expect(visa.getByText('07/2031')).toBeVisible();
  await expect(visa.getByText('4111111111111111')).toHaveCount(0);
  await visa.getByRole('button', { name: 'Show card number' }).click();
  await expect(visa.getByText('4111111111111111')).toBeVisible();

  d = await addOther(page, 'Secure Note');
  await d.getByLabel('Title').fill('Boat combination');
  await d.getByLabel('Notes').fill('left-right-left 12 40 7');
  await d.getByRole('button', { name: 'Add Secure Note' }).click();
  await expect(d).toBeHidden();
  await expect(card(page, 'Boat combination').getByText('left-right-left 12 40 7')).toBeVisible();

  d = await addOther(page, 'Identity');
  await d.getByLabel('Title').fill('Me, officially');
  await d.getByLabel('First name').fill('Ada');
  await d.getByLabel('Passport number', { exact: true }).fill('X1234567');
  await d.getByRole('button', { name: 'Add Identity' }).click();
  await expect(d).toBeHidden();
  const me = card(page, 'Me, officially');
  await expect(me.getByText('Ada', { exact: true })).toBeVisible();
  await expect(me.getByText('X1234567')).toHaveCount(0);

  d = await addOther(page, 'SSH Key');
  await d.getByLabel('Title').fill('Build server');
  await d.getByRole('button', { name: 'Generate Ed25519 key pair' }).click();
  await expect(d.getByLabel('Public key')).toHaveValue(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5/);
  await expect(d.getByLabel('Fingerprint')).toHaveValue(/^SHA256:/);
  const fingerprint = await d.getByLabel('Fingerprint').inputValue();
  await d.getByRole('button', { name: 'Add SSH Key' }).click();
  await expect(d).toBeHidden();
  const ssh = card(page, 'Build server');
  await expect(ssh.getByText(fingerprint)).toBeVisible();
  await expect(ssh.getByText('BEGIN OPENSSH PRIVATE KEY')).toHaveCount(0);
  await ssh.getByRole('button', { name: 'Show private key' }).click();
  await expect(ssh.getByText(/BEGIN OPENSSH PRIVATE KEY/)).toBeVisible();

  d = await addOther(page, 'API Key');
  await d.getByLabel('Title').fill('Payments API');
  await d.getByLabel('Key', { exact: true }).fill('sk_live_pelican_42');
  await d.getByLabel('Key username or ID').fill('acct_pelican');
  await d.getByRole('button', { name: 'Add API Key' }).click();
  await expect(d).toBeHidden();
  const api = card(page, 'Payments API');
  await expect(api.getByText('acct_pelican')).toBeVisible();
  await expect(api.getByText('sk_live_pelican_42')).toHaveCount(0);
  await api.getByRole('button', { name: 'Show key' }).click();
  await expect(api.getByText('sk_live_pelican_42')).toBeVisible();

  await expect(page.getByText('5 encrypted secrets')).toBeVisible();
  // After a reload every type reads back from its encrypted record as it was saved.
  await page.reload();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(card(page, 'Travel Visa').getByText('•••• 1111')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search secrets' }).fill('acct_pelican');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(card(page, 'Payments API')).toBeVisible();
});

test('a login with further websites, a hidden field, generator options, strength and a TOTP code equal to otpauth', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'totp');
  await createVault(page, { name: 'Logins', type: 'Secrets vault' });
  await openAndUnlock(page, 'Logins');

  await page.getByRole('button', { name: 'Add Site Password' }).click();
  const d = page.getByRole('dialog', { name: 'Add Secret' });
  await d.getByLabel('Title').fill('Mail');
  await d.getByLabel('Username').fill('ada@example.com');

  // The spec's default: 16 characters. A passphrase from the options, with its strength.
  await d.getByRole('button', { name: 'Generate' }).click();
  const password = d.getByLabel('Password', { exact: true });
  await expect(password).toHaveValue(/^[A-Za-z0-9!@#$%^&*]{16}$/);
  await d.getByRole('button', { name: 'Password generator options' }).click();
  await d.getByRole('radio', { name: 'Passphrase' }).check();
  await d.getByRole('button', { name: 'Generate' }).click();
  await expect(password).toHaveValue(/^[a-z]+(-[a-z]+){5}$/);
  await expect(d.getByTestId('strength')).toContainText(/Strength: (Good|Strong)/);

  await d.getByLabel('Website', { exact: true }).fill('https://mail.example.com');
  await d.getByRole('button', { name: 'Add another website' }).click();
  await d.getByLabel('Website 2', { exact: true }).fill('https://webmail.example.org');
  await d.getByRole('button', { name: 'Add hidden field' }).click();
  await d.getByLabel('Field 1 name').fill('Recovery PIN');
  await d.getByLabel('Field 1 value').fill('8080');
  const base32 = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  await d
    .getByLabel('Authenticator key (TOTP)')
    .fill(base32.toLowerCase().replace(/(.{4})/g, '$1 '));
  await d.getByRole('button', { name: 'Add Secret' }).click();
  await expect(d).toBeHidden();

  const mail = card(page, 'Mail');
  await expect(mail.getByText('https://webmail.example.org')).toBeVisible();
  await expect(mail.getByText('8080')).toHaveCount(0);
  await mail.getByRole('button', { name: 'Show recovery pin' }).click();
  await expect(mail.getByText('8080')).toBeVisible();

  // The code on the card is otpauth's for the same second (polled across a period boundary).
  const totp = new TOTP({ secret: Secret.fromBase32(base32) });
  const shown = mail.getByTestId('totp-code');
  await expect(shown).toHaveText(/^\d{6}$/);
  await expect
    .poll(async () => (await shown.textContent()) === totp.generate(), { timeout: 5000 })
    .toBe(true);
  await expect(mail.getByTestId('totp-seconds')).toHaveText(/^([1-9]|[12]\d|30)s$/);

  // Search finds it by its second website.
  await page.getByRole('searchbox', { name: 'Search secrets' }).fill('webmail');
  await expect(card(page, 'Mail')).toBeVisible();
});
