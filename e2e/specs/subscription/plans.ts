// Helpers for the subscription specs: promoting a user with the real admin command against the
// e2e server's data dir, vaults made through the API (a schema-valid vf1 key: only the count
// matters here, the wizard is covered by the vault specs), and the top bar's plan.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { vaultRequest } from '../../../apps/server/src/testing/vaults.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** `npm run admin -- promote <email>`, on the same database as the e2e server. */
export function promote(email: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/admin.ts'), 'promote', email],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' },
  );
}

/** Ends the user's running trial now, as the server's job does after 14 days (end-trial.ts). */
export function endTrial(email: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'end-trial.ts'), email],
    { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' },
  );
}

export async function createVaultsViaApi(page: Page, n: number, prefix = 'Vault'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await page.request.post('/api/vaults', {
      data: vaultRequest({ name: `${prefix} ${i + 1}`, description: undefined }),
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

/** The plan shown in the top bar (a link with the star and the plan's name). */
export const topBarPlan = (page: Page, name: string) =>
  page.getByRole('banner').getByRole('link', { name: `Plan: ${name}` });

/** On the subscription page, upgrades with 'Admin Upgrade (Free)' and waits for the new plan. */
export async function adminUpgrade(page: Page, plan: string): Promise<void> {
  await page.getByRole('button', { name: `Admin Upgrade (Free): ${plan}` }).click();
  await expect(page.getByTestId('current-plan-name')).toHaveText(plan);
}
