// The trash and older versions (issue 28 items 4 and 5), on our server and on an emulated Dropbox:
// delete moves to the trash (Undo puts it back), restore (into a re-created folder when its folder
// is gone, under a numbered name when its name is taken), delete forever, empty; an upload that
// replaces a file keeps the old one as a version that can be downloaded, restored and deleted;
// 30 days later the browser deletes what is left in the trash, from Dropbox too. The server learns
// no name and no content.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createVault, openAndUnlock, signedIn, VAULT_PASSWORD } from '../../support/vaults.ts';
import { serverFilesContaining } from '../../support/zero-knowledge.ts';
import { rowsWhere } from '../../support/tamper.ts';
import {
  connectCloud,
  dropboxPaths,
  emptyTrash,
  fileRow,
  moveToTrash,
  newFolder,
  textFixture,
  trashButton,
  uploadByPicker,
  type Fixture,
} from './helpers.ts';

test.describe.configure({ timeout: 150_000 });

const text = textFixture;
const FIRST = text('draft quokkapip.txt', 'the first words of the draft\n'.repeat(20));
const SECOND = text('draft quokkapip.txt', 'the second, better words\n'.repeat(30));
const LETTER = text('letter quokkapip.txt', 'dear reader\n');
const NOTE = text('note quokkapip.txt', 'a note in a box\n');
const DAY = 24 * 60 * 60 * 1000;

const trashRow = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Trash' }).getByRole('listitem', { name, exact: true });

const openFolder = (page: Page, name: string) =>
  fileRow(page, name).getByRole('button', { name, exact: true }).click();

async function unlockAgain(page: Page) {
  const unlock = page.getByRole('dialog', { name: 'Unlock Vault' });
  await unlock.getByLabel('Vault password').fill(VAULT_PASSWORD);
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(unlock).toBeHidden();
}

/** Uploads `f` over the file of its name and answers "Replace". */
async function replaceWith(page: Page, f: Fixture) {
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Choose files to upload').setInputFiles([f]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const question = dialog.getByRole('group', { name: `"${f.name}" already exists in this vault.` });
  await expect(question).toContainText('Replace keeps the file there as an older version.');
  await question.getByRole('button', { name: 'Replace' }).click();
  await expect(dialog).toBeHidden();
}

const versionsButton = (page: Page, name: string) =>
  fileRow(page, name).getByRole('button', { name: new RegExp(`^Versions of ${name}`) });

async function downloaded(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return fs.readFileSync(await download.path());
}

test('on our server: trash, undo, restore, delete forever, empty; replace and restore a version', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'trash');
  await createVault(page, { name: 'Shoebox', type: 'File vault' });
  await openAndUnlock(page, 'Shoebox');
  const vaultId = /\/vault\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const rows = () => rowsWhere('vault_files', 'vault_id', vaultId);

  // A folder with a letter in it goes to the trash with the letter; Undo brings both back.
  await expect(await newFolder(page, 'Letters quokkapip')).toBeHidden();
  await openFolder(page, 'Letters quokkapip');
  await uploadByPicker(page, [LETTER]);
  await page.getByRole('navigation', { name: 'Folder path' }).getByText('All files').click();
  await moveToTrash(page, 'Letters quokkapip');
  await expect(page.getByText('No files in this vault')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(fileRow(page, 'Letters quokkapip')).toContainText('1 item');
  await expect(trashButton(page)).toHaveText('Trash');

  // In the trash: what it holds and where it was. A new folder takes its name meanwhile, so the
  // restored one comes back under a numbered name.
  await moveToTrash(page, 'Letters quokkapip');
  await expect(trashButton(page)).toHaveText('Trash (1)');
  await expect(await newFolder(page, 'Letters quokkapip')).toBeHidden();
  await trashButton(page).click();
  await expect(page).toHaveURL(/\?view=trash$/);
  await expect(trashRow(page, 'Letters quokkapip')).toContainText('1 file');
  await expect(trashRow(page, 'Letters quokkapip')).toContainText('from All files');
  await page.getByRole('button', { name: 'Restore Letters quokkapip' }).click();
  await expect(
    page.getByText(
      '"Letters quokkapip" was restored as "Letters quokkapip (2)": the name is in use there.',
    ),
  ).toBeVisible();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  await page.getByRole('button', { name: 'Back to files' }).click();
  await expect(fileRow(page, 'Letters quokkapip (2)')).toContainText('1 item');

  // A note trashed from its folder, then the folder deleted for good: restoring the note makes
  // the folder again.
  await expect(await newFolder(page, 'Box quokkapip')).toBeHidden();
  await openFolder(page, 'Box quokkapip');
  await uploadByPicker(page, [NOTE]);
  await moveToTrash(page, NOTE.name);
  await page.getByRole('navigation', { name: 'Folder path' }).getByText('All files').click();
  await moveToTrash(page, 'Box quokkapip');
  await trashButton(page).click();
  await expect(trashRow(page, NOTE.name)).toContainText('from Box quokkapip');
  await page.getByRole('button', { name: 'Delete Box quokkapip forever' }).click();
  const forever = page.getByRole('dialog', { name: 'Delete forever' });
  await expect(forever).toContainText(
    'Delete the folder "Box quokkapip" and everything in it (0 files) for good? This cannot be undone.',
  );
  await forever.getByRole('button', { name: 'Delete forever' }).click();
  await expect(forever).toBeHidden();
  await expect(trashRow(page, 'Box quokkapip')).toHaveCount(0);
  await page.getByRole('button', { name: `Restore ${NOTE.name}` }).click();
  await expect(page.getByText(`"${NOTE.name}" was restored.`)).toBeVisible();
  await page.getByRole('button', { name: 'Back to files' }).click();
  await openFolder(page, 'Box quokkapip');
  await expect(fileRow(page, NOTE.name)).toBeVisible();
  await page.getByRole('navigation', { name: 'Folder path' }).getByText('All files').click();

  // Replace: the first draft is kept as an older version, which downloads, restores and deletes.
  await uploadByPicker(page, [FIRST]);
  await replaceWith(page, SECOND);
  await expect(versionsButton(page, FIRST.name)).toHaveAccessibleName(
    `Versions of ${FIRST.name} (1 older)`,
  );
  expect(
    await downloaded(page, () =>
      fileRow(page, FIRST.name)
        .getByRole('button', { name: `Download ${FIRST.name}` })
        .click(),
    ),
  ).toEqual(SECOND.buffer);
  await versionsButton(page, FIRST.name).click();
  const versions = page.getByRole('dialog', { name: `Versions of "${FIRST.name}"` });
  await expect(versions).toContainText('The last 10 versions are kept.');
  const older = versions.getByRole('list', { name: 'Versions' }).getByRole('listitem').nth(1);
  expect(
    await downloaded(page, () =>
      older.getByRole('button', { name: /^Download the version of / }).click(),
    ),
  ).toEqual(FIRST.buffer);
  await older.getByRole('button', { name: /^Restore the version of / }).click();
  await expect(versions).toBeHidden();
  await expect(
    page.getByText(`The older version of "${FIRST.name}" is now the file.`),
  ).toBeVisible();
  expect(
    await downloaded(page, () =>
      fileRow(page, FIRST.name)
        .getByRole('button', { name: `Download ${FIRST.name}` })
        .click(),
    ),
  ).toEqual(FIRST.buffer);
  // The replaced upload is now the older version; deleting it leaves none.
  await versionsButton(page, FIRST.name).click();
  await versions
    .getByRole('listitem')
    .nth(1)
    .getByRole('button', { name: /^Delete the version of / })
    .click();
  await expect(versions.getByRole('listitem')).toHaveCount(1);
  await versions.getByRole('button', { name: 'Close' }).click();
  await expect(versionsButton(page, FIRST.name)).toHaveCount(0);

  // Emptying the trash deletes the records and their data; what is live stays.
  await moveToTrash(page, 'Letters quokkapip');
  const before = rows().length;
  await emptyTrash(page);
  expect(rows().length).toBe(before - 1); // the empty folder's record
  await expect(fileRow(page, 'Letters quokkapip (2)')).toBeVisible();

  // Left in the trash for 30 days, the next open deletes it for good.
  await moveToTrash(page, FIRST.name);
  const trashed = rows().filter((r) => r.trashed_at !== null);
  expect(trashed).toHaveLength(1);
  await page.clock.setFixedTime(Date.now() + 31 * DAY);
  await page.reload();
  await unlockAgain(page);
  await expect(trashButton(page)).toHaveText('Trash');
  await expect.poll(() => rows().some((r) => r.id === trashed[0]!.id)).toBe(false);

  // Zero knowledge: no name and no content on the server side.
  expect(
    serverFilesContaining(['quokkapip', 'first words', 'better words', 'dear reader', 'in a box']),
  ).toEqual([]);
});

test('on Dropbox: the trash keeps the copies, a replaced file keeps its version, and 30 days later the browser deletes them there', async ({
  page,
  request,
  baseURL,
}) => {
  await signedIn(page, request, baseURL!, 'trash-dropbox');
  await connectCloud(page, 'Dropbox');
  await page.goto('/dashboard');
  await createVault(page, { name: 'Attic', type: 'File vault', provider: 'Dropbox' });
  await openAndUnlock(page, 'Attic');

  await expect(await newFolder(page, 'Boxes quokkapip')).toBeHidden();
  await uploadByPicker(page, [FIRST, LETTER]);
  await replaceWith(page, SECOND);
  await expect(versionsButton(page, FIRST.name)).toBeVisible();
  // A folder, two drafts and a letter: four copies on Dropbox.
  const held = await dropboxPaths(page, 'Attic');
  expect(held).toHaveLength(4);

  // The trash keeps the copies until it is emptied or 30 days have passed.
  await moveToTrash(page, FIRST.name);
  await moveToTrash(page, 'Boxes quokkapip');
  expect(await dropboxPaths(page, 'Attic')).toEqual(held);
  await trashButton(page).click();
  await expect(trashRow(page, FIRST.name)).toBeVisible();
  await expect(trashRow(page, 'Boxes quokkapip')).toBeVisible();

  await page.clock.setFixedTime(Date.now() + 31 * DAY);
  await page.reload();
  await unlockAgain(page);
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  await expect.poll(() => dropboxPaths(page, 'Attic')).toHaveLength(1);
  await page.getByRole('button', { name: 'Back to files' }).click();
  await expect(fileRow(page, LETTER.name)).toBeVisible();
});
