// A block corrupted on its way to the server: the PATCH carries the block's SHA-256 (the tus
// checksum extension), the server refuses it with 460 and keeps none of it, the app sends that
// block again, and the file completes byte-identical with its content hash recorded.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { unlimitedFileVault, uploadLargeFile } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

const MiB = 1024 * 1024;

test('a corrupted block is refused and sent again; the file arrives intact', async ({
  page,
  request,
  baseURL,
}) => {
  await unlimitedFileVault(page, request, baseURL ?? '', 'checksum', 'Scans');
  const patches: { offset: number; status: number; checksum: string | null }[] = [];
  let corrupted = false;
  await page.route('**/api/uploads/*', async (route) => {
    const req = route.request();
    if (req.method() !== 'PATCH') return route.continue();
    const offset = Number(req.headers()['upload-offset']);
    const checksum = req.headers()['upload-checksum'] ?? null;
    let body = req.postDataBuffer() ?? Buffer.alloc(0);
    if (offset === 4 * MiB && !corrupted) {
      corrupted = true;
      body = Buffer.from(body);
      body[1000]! ^= 0x20; // one bit flipped on the way
    }
    const res = await route.fetch({ postData: body });
    patches.push({ offset, status: res.status(), checksum });
    return route.fulfill({ response: res });
  });

  const name = 'scan.bin';
  const buffer = await uploadLargeFile(page, name, 9 * MiB + 123);

  // Three blocks; the second refused once (460) and accepted when sent again.
  expect(patches.map((p) => [p.offset / MiB, p.status])).toEqual([
    [0, 204],
    [4, 460],
    [4, 204],
    [8, 204],
  ]);
  expect(patches.every((p) => /^sha256 [A-Za-z0-9+/]{43}=$/.test(p.checksum ?? ''))).toBe(true);

  const vaultId = new URL(page.url()).pathname.split('/').pop()!;
  const listed = (await (await page.request.get(`/api/vaults/${vaultId}/files`)).json()) as {
    files: { checksum_algorithm: string }[];
  };
  expect(listed.files).toHaveLength(1);
  expect(listed.files[0]!.checksum_algorithm).toBe('content-hash-4m');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Download ${name}` }).click(),
  ]);
  const saved = fs.readFileSync(await download.path());
  expect(createHash('sha256').update(saved).digest('hex')).toBe(
    createHash('sha256').update(buffer).digest('hex'),
  );
});
