// Which way a download's ciphertext goes ([Note: fetched downloads] in packages/crypto): a
// provider with a contentUrl (our server) hands it to the crypto Worker, any other is read on
// the page; a fetch that failed in the Worker is the StorageError the provider's get throws.
import { CryptoError } from '@sealvault/crypto';
import { describe, expect, it, vi } from 'vitest';
import { StorageError, type StorageProvider } from '../../storage/provider.ts';
import { fileEntry } from '../entry.testing.ts';

const decryptFetched = vi.fn<(...args: unknown[]) => Promise<ReadableStream<Uint8Array>>>();
const decryptFileStream = vi.fn<(...args: unknown[]) => ReadableStream<Uint8Array>>();
const decryptFetchedTo = vi.fn<(...args: unknown[]) => Promise<void>>();
vi.mock('../../crypto/client.ts', () => ({
  cryptoClient: () => ({ decryptFetched, decryptFileStream, decryptFetchedTo }),
}));
vi.mock('../../vaults/sessionContext.tsx', () => ({ sessionOf: () => 'session' }));
let provider: Partial<StorageProvider> = {};
vi.mock('../../storage/providers.ts', () => ({ storageOf: () => provider }));

const { decryptedStream, downloadFile, BLOB_DOWNLOAD_LIMIT } = await import('./download.ts');

const file = fileEntry('7d1c1a3e-9d38-4a43-9a55-0a4b8f3c2b10', {
  size: 3,
  wrappedKey: 'wk',
  ref: 'ref-1',
});
/** Plaintext 'abc' followed by padding zeros. */
const padded = () => new Blob([new Uint8Array([97, 98, 99, 0, 0])]).stream();
const text = async (s: ReadableStream<Uint8Array>) => new Response(s).text();

describe('decryptedStream', () => {
  it("hands our server's content URL to the crypto Worker, and trims the padding", async () => {
    provider = { contentUrl: (v, ref) => `https://app.test/api/vaults/${v}/files/${ref}/content` };
    decryptFetched.mockResolvedValueOnce(padded());
    expect(await text(await decryptedStream('v1', file))).toBe('abc');
    expect(decryptFetched).toHaveBeenCalledWith(
      'session',
      file.id,
      'wk',
      'https://app.test/api/vaults/v1/files/ref-1/content',
      undefined,
    );
    expect(decryptFileStream).not.toHaveBeenCalled();
  });

  it('turns a missing or failed fetch into the StorageError get would throw', async () => {
    provider = { contentUrl: () => 'https://app.test/x' };
    decryptFetched.mockRejectedValueOnce(new CryptoError('NOT_FOUND'));
    const missing: unknown = await decryptedStream('v1', file).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(StorageError);
    expect(missing).toMatchObject({ code: 'not_found', message: 'File data not found' });

    decryptFetched.mockRejectedValueOnce(new CryptoError('FETCH_FAILED'));
    await expect(decryptedStream('v1', file)).rejects.toMatchObject({
      code: 'failed',
      message: 'Failed to load file content.',
    });
    decryptFetched.mockRejectedValueOnce(new CryptoError('DECRYPT_FAILED'));
    await expect(decryptedStream('v1', file)).rejects.toBeInstanceOf(CryptoError);
  });

  it("reads any other provider's ciphertext on the page", async () => {
    const ciphertext = new Blob([new Uint8Array([1, 2])]).stream();
    const get = vi.fn(() => Promise.resolve(ciphertext));
    provider = { get };
    decryptFileStream.mockReturnValueOnce(padded());
    expect(await text(await decryptedStream('v1', file))).toBe('abc');
    expect(get).toHaveBeenCalledWith('v1', 'ref-1', undefined, undefined);
    expect(decryptFileStream).toHaveBeenCalledWith('session', file.id, 'wk', ciphertext);
  });
});

// [Note: downloads written in the Worker]: a real file handle from the save dialog goes to the
// crypto Worker with the file's URL; anything else is written on the page.
describe('downloadFile to a file the save dialog gave', () => {
  class FileSystemFileHandle {
    createWritable = vi.fn(() => Promise.resolve(new WritableStream<Uint8Array>()));
  }
  const big = fileEntry('0b9a4c1e-5f6d-4e3a-8b2c-1d0e9f8a7b6c', {
    size: BLOB_DOWNLOAD_LIMIT + 1,
    wrappedKey: 'wk',
    ref: 'ref-2',
  });
  const withPicker = (handle: object) => {
    vi.stubGlobal('FileSystemFileHandle', FileSystemFileHandle);
    vi.stubGlobal('window', { showSaveFilePicker: () => Promise.resolve(handle) });
  };

  it('hands the handle to the crypto Worker, which writes it, and reports the percent', async () => {
    const handle = new FileSystemFileHandle();
    withPicker(handle);
    provider = { contentUrl: (v, ref) => `https://app.test/api/vaults/${v}/files/${ref}/content` };
    decryptFetchedTo.mockImplementationOnce((...args) => {
      (args[6] as (n: number) => void)(Math.floor(big.size / 2));
      return Promise.resolve();
    });
    const percents: (number | null)[] = [];
    expect(await downloadFile('v1', big, { onProgress: (p) => percents.push(p) })).toBe(true);
    expect(decryptFetchedTo.mock.calls[0]?.slice(0, 6)).toEqual([
      'session',
      big.id,
      'wk',
      'https://app.test/api/vaults/v1/files/ref-2/content',
      handle,
      big.size,
    ]);
    expect(percents).toEqual([0, 49, 100]);
    expect(handle.createWritable).not.toHaveBeenCalled(); // the Worker opens it
    vi.unstubAllGlobals();
  });

  it("says the file could not be saved when the Worker's write failed", async () => {
    withPicker(new FileSystemFileHandle());
    provider = { contentUrl: () => 'https://app.test/x' };
    decryptFetchedTo.mockRejectedValueOnce(new CryptoError('WRITE_FAILED'));
    await expect(downloadFile('v1', big)).rejects.toThrow(
      'Failed to download file: The file could not be saved.',
    );
    vi.unstubAllGlobals();
  });

  it('writes on the page for a handle that is not a real one, or a provider without a URL', async () => {
    const stub = { createWritable: vi.fn(() => Promise.resolve(new WritableStream<Uint8Array>())) };
    withPicker(stub);
    provider = { contentUrl: () => 'https://app.test/x' };
    decryptFetched.mockResolvedValueOnce(padded());
    decryptFetchedTo.mockClear();
    expect(await downloadFile('v1', big)).toBe(true);
    expect(stub.createWritable).toHaveBeenCalled();
    expect(decryptFetchedTo).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
