import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './client.ts';
import { filesApi } from './files.api.ts';
import { purgedFileMessage } from './files.ts';

afterEach(() => vi.unstubAllGlobals());

const record = {
  id: '1d7e2f0c-4b1a-4c3d-9e8f-0a1b2c3d4e5f',
  enc_meta: 'AAAA',
  name_lookup: 'b'.repeat(64),
  wrapped_key: 'AAAA',
  ciphertext_size: 88,
  checksum: 'a'.repeat(64),
  checksum_algorithm: 'content-hash-4m',
  storage_ref: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('filesApi.trash', () => {
  it('posts the ids and the flag, and answers the records with their trash times', async () => {
    const fetch = vi.fn((_url: string, _init?: RequestInit) =>
      Promise.resolve(
        Response.json({ files: [{ ...record, trashed_at: '2026-02-01T00:00:00.000Z' }] }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const files = await filesApi.trash('v/1', { ids: [record.id], trashed: true });
    expect(files.files).toEqual([
      { ...record, trashed_at: '2026-02-01T00:00:00.000Z', purged_at: null },
    ]);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/vaults/v%2F1/files/trash');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ ids: [record.id], trashed: true });
  });

  it("turns the server's refusal of a purged record into an ApiError with its message", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        Response.json({ error: { code: 'conflict', message: purgedFileMessage } }, { status: 409 }),
      ),
    );
    const refused = filesApi.trash('v', { ids: [record.id], trashed: false });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 409, message: purgedFileMessage });
  });
});
