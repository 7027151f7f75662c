// Several files downloaded as one ZIP (zip.ts), in Chromium with the real crypto Workers and the
// browser provider (OPFS), set up as transfer.browser.test.ts is: files are uploaded, then saved
// as a ZIP through a stubbed save dialog that keeps what is written, and unzipped with fflate.
// The Service Worker's path is read back with fetch, as the browser's downloads would read it.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { unzipSync } from 'fflate';
import { filesApi, vaultsApi } from '@sealvault/protocol';
import { vaultKeys } from '../../crypto/vaultKeys.ts';
import { registerVaultStorage, storageOf } from '../../storage/providers.ts';
import { noteKeyRevision } from '../../vaults/manifest/keyRevision.ts';
import { appVaultSessions } from '../../vaults/sessionContext.tsx';
import type { FileEntry } from '../model.ts';
import { openStreamDownload } from './mediaStream.ts';
import { uploadFile } from './upload.ts';
import { downloadZip, zipLength, type ZipEntry } from './zip.ts';
import { fresh } from '../entry.testing.ts';

const vaultId = crypto.randomUUID();

const create = vi.spyOn(filesApi, 'create').mockImplementation((_vault, input) =>
  Promise.resolve({
    file: {
      ...input,
      checksum_algorithm: 'content-hash-4m' as const,
      created_at: '2026-11-26T00:00:00.000Z',
      trashed_at: null,
      purged_at: null,
      updated_at: '2026-11-26T00:00:00.000Z',
    },
  }),
);
// No server here: the vault has no manifest, so uploads write none (vaults/manifest covers it).
vi.spyOn(vaultsApi, 'manifest').mockResolvedValue({ manifest: null });

/** Uploads `bytes` as `name` and answers the file as the browser lists it. */
async function upload(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<FileEntry> {
  const modified = Date.UTC(2026, 10, 26, 12, 30);
  const file = new File([bytes], name, {
    type: 'application/octet-stream',
    lastModified: modified,
  });
  await uploadFile(vaultId, file, () => undefined, new AbortController().signal);
  const record = create.mock.calls.at(-1)![1];
  return {
    id: record.id,
    name,
    mime: 'application/octet-stream',
    size: bytes.length,
    createdAt: new Date().toISOString(),
    wrappedKey: record.wrapped_key,
    ciphertextSize: record.ciphertext_size,
    ref: record.storage_ref,
    modified,
    folder: null,
    isFolder: false,
    ...fresh,
  };
}

const text = (s: string) => new TextEncoder().encode(s);
const contents = {
  first: text('first notes\n'),
  second: text('second notes, same name\n'),
  // Several of the crypto's 64 KiB chunks, so a file is read in more than one piece.
  scan: Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251),
  empty: new Uint8Array(0),
};
let entries: ZipEntry[];

type Picker = (options: { suggestedName: string }) => Promise<unknown>;
const win = window as unknown as { showSaveFilePicker?: Picker };
const realPicker = win.showSaveFilePicker;

/** A save dialog that answers a file keeping what is written to it, and how it ended. */
function stubPicker(onWrite?: () => void) {
  const saved = { name: '', chunks: [] as Uint8Array[], closed: false, aborted: false };
  win.showSaveFilePicker = ({ suggestedName }) => {
    saved.name = suggestedName;
    return Promise.resolve({
      createWritable: () =>
        Promise.resolve(
          new WritableStream<Uint8Array>({
            write(chunk) {
              saved.chunks.push(chunk.slice());
              onWrite?.();
            },
            close() {
              saved.closed = true;
            },
            abort() {
              saved.aborted = true;
            },
          }),
        ),
    });
  };
  return saved;
}

const joined = (chunks: Uint8Array[]) => {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) all.set(c, (at += c.length) - c.length);
  return all;
};

beforeAll(async () => {
  registerVaultStorage({ id: vaultId, provider_type: 'local' });
  noteKeyRevision(vaultId, 0); // as unlockChecked would ([Note: key revision of a write])
  const key = await vaultKeys.create(vaultId, 'zip test password');
  await appVaultSessions.unlock(vaultId, key, 'zip test password');
  entries = [
    { file: await upload('notes.txt', contents.first), path: 'notes.txt' },
    { file: await upload('notes.txt', contents.second), path: 'Notes.txt' },
    { file: await upload('scan.bin', contents.scan), path: 'Folder/scan.bin' },
    { file: await upload('empty.txt', contents.empty), path: '/empty.txt' },
  ];
});
afterEach(() => {
  win.showSaveFilePicker = realPicker;
});
afterAll(async () => {
  appVaultSessions.end(vaultId);
  await storageOf(vaultId).removeContainer(vaultId);
});

describe('downloading several files as one ZIP', () => {
  it('saves them through the save dialog, unzipping to the same names and bytes', async () => {
    const saved = stubPicker();
    const progress: (number | null)[] = [];
    const done = await downloadZip(vaultId, entries, 'Vault files.zip', {
      blobBelow: 0,
      onProgress: (p) => progress.push(p),
    });
    expect(done).toBe(true);
    expect(saved.name).toBe('Vault files.zip');
    expect(saved.closed).toBe(true);
    // Streamed: the writer got the ZIP in many pieces, not in one buffer.
    expect(saved.chunks.length).toBeGreaterThan(4);
    const zip = joined(saved.chunks);
    expect(zip.length).toBe(zipLength(entries)); // predicted exactly, before reading a file
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);

    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual([
      'notes.txt',
      'Notes (2).txt', // the same name in another case is numbered
      'Folder/scan.bin',
      'empty.txt',
    ]);
    expect(files['notes.txt']).toEqual(contents.first);
    expect(files['Notes (2).txt']).toEqual(contents.second);
    expect(files['Folder/scan.bin']).toEqual(contents.scan);
    expect(files['empty.txt']).toEqual(contents.empty);
  });

  it('resolves false, discarding the partial file, when cancelled mid-way', async () => {
    const ctrl = new AbortController();
    const saved = stubPicker(() => ctrl.abort());
    await expect(
      downloadZip(vaultId, entries, 'x.zip', { signal: ctrl.signal, blobBelow: 0 }),
    ).resolves.toBe(false);
    expect(saved.aborted).toBe(true);
    expect(saved.closed).toBe(false);
    expect(joined(saved.chunks).length).toBeLessThan(zipLength(entries));
  });

  it('resolves false when the save dialog is dismissed, reading nothing', async () => {
    win.showSaveFilePicker = () => Promise.reject(new DOMException('dismissed', 'AbortError'));
    const get = vi.spyOn(storageOf(vaultId), 'get');
    await expect(downloadZip(vaultId, entries, 'x.zip', { blobBelow: 0 })).resolves.toBe(false);
    expect(get).not.toHaveBeenCalled();
    get.mockRestore();
  });

  it('fails with the download error, naming the reason, when a file cannot be read', async () => {
    const saved = stubPicker();
    const other = crypto.randomUUID(); // a vault that is not unlocked
    registerVaultStorage({ id: other, provider_type: 'local' });
    await expect(downloadZip(other, entries, 'x.zip', { blobBelow: 0 })).rejects.toThrow(
      'Failed to download file: Vault is not unlocked',
    );
    expect(saved.closed).toBe(false);
  });
});

describe('the Service Worker path', () => {
  it('serves a stream of known length once, as an attachment with its Content-Length', async () => {
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => i % 253);
    let opened = 0;
    const media = await openStreamDownload('Vault files.zip', bytes.length, () => {
      opened++;
      return Promise.resolve(new Blob([bytes]).stream());
    });
    expect(media).not.toBeNull();
    try {
      const res = await fetch(media!.url);
      expect(res.headers.get('Content-Length')).toBe(String(bytes.length));
      expect(res.headers.get('Content-Disposition')).toBe(
        "attachment; filename*=UTF-8''Vault%20files.zip",
      );
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
      await media!.finished;
      expect(opened).toBe(1);
      expect((await fetch(media!.url)).status).toBe(404); // answered once
    } finally {
      media!.dispose();
    }
  });

  it('saves a small ZIP through a Blob, with no dialog, as one small file is', async () => {
    const picker = vi.fn();
    win.showSaveFilePicker = picker;
    const blobs: Blob[] = [];
    const made = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:zip-test';
    });
    try {
      expect(await downloadZip(vaultId, entries, 'Small.zip')).toBe(true);
    } finally {
      made.mockRestore();
    }
    expect(picker).not.toHaveBeenCalled();
    expect(blobs).toHaveLength(1);
    const unzipped = unzipSync(new Uint8Array(await blobs[0]!.arrayBuffer()));
    expect(Object.keys(unzipped)).toHaveLength(entries.length);
  });

  it('hands the ZIP to the browser’s downloads where there is no save dialog', async () => {
    win.showSaveFilePicker = undefined;
    const progress: (number | null)[] = [];
    const done = await downloadZip(vaultId, entries, 'Vault files.zip', {
      blobBelow: 0,
      onProgress: (p) => progress.push(p),
    });
    expect(done).toBe(true);
    expect(progress).toEqual([null]);
  });
});
