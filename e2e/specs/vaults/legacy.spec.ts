// A vault made before the manifest and key commitments (issue 18, ADR 0007): its password slot has
// no commit and it has no manifest. Its first unlock re-seals the slot as a committed one and
// writes manifest version 1; from then on it unlocks like any other vault.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { FAST_KDF, legacySlot } from '../../../packages/crypto/src/testkit.ts';
import { asVaultId } from '../../../packages/crypto/src/ids.ts';
import { createVault, signedIn, vaultCard, VAULT_PASSWORD } from '../../support/vaults.ts';
import { replaceKey, storedKey, storedManifest } from '../../support/tamper.ts';

test.describe.configure({ timeout: 90_000 });

test("an older vault's first unlock commits its slot and writes manifest version 1", async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'legacy');
  await createVault(page, { name: 'Attic', type: 'Secrets vault' });
  const href = await vaultCard(page, 'Attic')
    .getByRole('link', { name: 'Attic' })
    .getAttribute('href');
  const vaultId = href!.split('/').pop()!;

  // As the app wrote slots before ADR 0007: the slot id as text in the AAD, no commit.
  const slot = await legacySlot(asVaultId(vaultId), VAULT_PASSWORD, FAST_KDF, randomBytes(32));
  replaceKey(vaultId, { format: 'vf1', slots: [slot] });
  expect(storedManifest(vaultId)).toBeNull();

  await vaultCard(page, 'Attic').getByRole('link', { name: 'Attic' }).click();
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText('No secrets in this vault yet.')).toBeVisible();

  const key = storedKey(vaultId);
  expect(key.slots).toHaveLength(1);
  expect(typeof key.slots[0]!.commit).toBe('string');
  expect(key.slots[0]!.wrapped).not.toBe(slot.wrapped);
  expect(storedManifest(vaultId)?.version).toBe(1);

  // And it opens again, committed now.
  await page.getByRole('button', { name: 'Lock Vault' }).click();
  await vaultCard(page, 'Attic').getByRole('link', { name: 'Attic' }).click();
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText('This vault does not match its manifest')).toHaveCount(0);
});
