// @vitest-environment happy-dom
// A file whose name is in use asks before it is uploaded: "Replace" keeps the file there as an
// older version, "Keep both" uploads it under a numbered name, "Skip" leaves it out, and the answer can be given once for the rest of the batch. A
// failure shows the server's own reason, never a generic text it could have explained.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { ApiError } from '@sealvault/protocol';
import { addToSelection, type FileEntry, type Selected } from './model.ts';
import { fileEntry } from './entry.testing.ts';
import { UploadDialog } from './UploadDialog.tsx';

const uploaded: string[] = [];
const upload = vi.fn(
  (
    _vault: string,
    _file: File,
    _progress: unknown,
    _signal: unknown,
    _retrying: unknown,
    { name, folder, id }: { name: string; folder: string | null; id?: string },
  ) => {
    if (name === 'refused.txt') {
      return Promise.reject(
        new ApiError(409, 'conflict', 'A file with this name already exists in this vault.'),
      );
    }
    uploaded.push(folder ? `${folder} ${name}` : name);
    steps.push(`upload ${name}${id ? ` as ${id}` : ''}`);
    return Promise.resolve(id ?? 'new-id');
  },
);
vi.mock('./transfer/upload.ts', () => ({
  uploadFile: (...a: Parameters<typeof upload>) => upload(...a),
}));
const steps: string[] = [];
vi.mock('./versions.ts', () => ({
  makeRoomFor: (_v: string, current: FileEntry, id: string) => {
    steps.push(`version ${current.name} of ${id}`);
    return Promise.resolve();
  },
  settleVersions: (_v: string, replaced: FileEntry, id: string) => {
    steps.push(`settle ${replaced.name} under ${id}`);
    return Promise.resolve();
  },
}));

afterEach(() => {
  cleanup();
  uploaded.length = 0;
  made.length = 0;
  steps.length = 0;
  upload.mockClear();
});

const file = (name: string) => new File([name], name, { lastModified: name.length });

const made: string[] = [];

function Harness({
  files,
  taken,
  inFolders = {},
  replaceable = [],
}: {
  files: (File | { file: File; dir: string[] })[];
  taken: string[];
  /** Names at the root that are files a new upload can replace. */
  replaceable?: string[];
  /** The names already in a folder, by its id. */
  inFolders?: Record<string, string[]>;
}) {
  const [selection, setSelection] = useState<Selected[]>(() => addToSelection([], files));
  return (
    <UploadDialog
      vaultId="v"
      open
      selection={selection}
      onSelection={setSelection}
      maxFileSizeMb={undefined}
      onAddFiles={() => undefined}
      folder={null}
      namesIn={(f) => new Set(f === null ? taken : (inFolders[f] ?? []))}
      fileNamed={(f, name) =>
        f === null && replaceable.includes(name) ? fileEntry(`old-${name}`, { name }) : undefined
      }
      folderFor={(base, dir) => {
        made.push(`${base ?? ''}/${dir.join('/')}`);
        return Promise.resolve(`id:${dir.join('/')}`);
      }}
      onClose={() => undefined}
      onUploaded={() => Promise.resolve()}
    />
  );
}

it('asks for each name in use: keep both numbers it, skip leaves it out', async () => {
  const user = userEvent.setup();
  render(
    <Harness
      files={[file('notes.txt'), file('new.txt'), file('photo.png')]}
      taken={['notes.txt', 'notes (2).txt', 'photo.png']}
    />,
  );
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  const question = await screen.findByRole('group', {
    name: '"notes.txt" already exists in this vault.',
  });
  expect(question.textContent).toContain('Keep both saves the new file as "notes (3).txt".');
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep both' }));
  await user.click(screen.getByRole('button', { name: 'Keep both' }));
  await screen.findByRole('group', { name: '"photo.png" already exists in this vault.' });
  // The last name in use: nothing left to answer for.
  expect(screen.queryByRole('checkbox', { name: /Do the same/ })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Skip' }));
  await waitFor(() => expect(uploaded).toEqual(['notes (3).txt', 'new.txt']));
});

it('one answer for the rest of the batch; two files of one name in a batch are asked about too', async () => {
  const user = userEvent.setup();
  const twin = new File(['other bytes'], 'a.txt', { lastModified: 99 });
  render(<Harness files={[file('a.txt'), twin, file('b.txt')]} taken={['b.txt']} />);
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  // a.txt is free, then the second a.txt (the first is now taken) and b.txt are in use.
  await screen.findByRole('group', { name: '"a.txt" already exists in this vault.' });
  await user.click(
    screen.getByRole('checkbox', { name: 'Do the same for the other 1 file with a name in use' }),
  );
  await user.click(screen.getByRole('button', { name: 'Keep both' }));
  await waitFor(() => expect(uploaded).toEqual(['a.txt', 'a (2).txt', 'b (2).txt']));
  expect(screen.queryByRole('group')).toBeNull();
});

it("shows the server's reason when it refuses a file", async () => {
  const user = userEvent.setup();
  render(<Harness files={[file('refused.txt')]} taken={[]} />);
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'A file with this name already exists in this vault.',
  );
});

it('a chosen folder goes into folders of its own; a name in use there asks about that folder', async () => {
  const user = userEvent.setup();
  render(
    <Harness
      files={[
        { file: file('a.txt'), dir: ['Scans'] },
        { file: file('b.txt'), dir: ['Scans', 'sub'] },
        file('a.txt'),
      ]}
      taken={[]}
      inFolders={{ 'id:Scans/sub': ['b.txt'] }}
    />,
  );
  expect(screen.getByText('Scans/sub/')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  await screen.findByRole('group', { name: '"b.txt" already exists in this folder.' });
  await user.click(screen.getByRole('button', { name: 'Keep both' }));
  await waitFor(() =>
    expect(uploaded).toEqual(['id:Scans a.txt', 'id:Scans/sub b (2).txt', 'a.txt']),
  );
  expect(made).toEqual(['/Scans', '/Scans/sub']);
});

it('replace keeps the file there as an older version of the new upload, made before it', async () => {
  const user = userEvent.setup();
  const twin = new File(['other bytes'], 'notes.txt', { lastModified: 99 });
  render(
    <Harness
      files={[file('notes.txt'), twin, file('Taxes')]}
      taken={['notes.txt', 'Taxes']}
      replaceable={['notes.txt']}
    />,
  );
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  const question = await screen.findByRole('group', {
    name: '"notes.txt" already exists in this vault.',
  });
  expect(question.textContent).toContain('Replace keeps the file there as an older version.');
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Replace' }));
  await user.click(
    screen.getByRole('checkbox', { name: 'Do the same for the other 2 files with a name in use' }),
  );
  await user.click(screen.getByRole('button', { name: 'Replace' }));
  // The second notes.txt of the batch and the folder "Taxes" have nothing to replace: kept both.
  await waitFor(() => expect(uploaded).toEqual(['notes.txt', 'notes (2).txt', 'Taxes (2)']));
  const id = /as (\S+)$/.exec(steps[1]!)?.[1];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(steps).toEqual([
    `version notes.txt of ${id}`,
    `upload notes.txt as ${id}`,
    `settle notes.txt under ${id}`,
    'upload notes (2).txt',
    'upload Taxes (2)',
  ]);
});

it('a name in use by a folder or by the batch is not offered Replace', async () => {
  const user = userEvent.setup();
  render(<Harness files={[file('Taxes')]} taken={['Taxes']} />);
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  await screen.findByRole('group', { name: '"Taxes" already exists in this vault.' });
  expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep both' }));
});
