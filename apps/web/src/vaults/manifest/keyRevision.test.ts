import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  STALE_KEY_MESSAGE,
  vaultsApi,
  type Manifest,
  type Vault,
} from '@sealvault/protocol';

const verify = vi.fn<(session: string, manifest: unknown) => Promise<{ ok: boolean }>>();
vi.mock('../../crypto/client.ts', () => ({
  cryptoClient: () => ({ verifyManifest: verify }),
}));
const end = vi.fn<(vaultId: string, reason: string) => void>();
vi.mock('../sessionContext.tsx', () => ({
  sessionOf: () => 'session',
  appVaultSessions: { end: (vaultId: string, reason: string) => end(vaultId, reason) },
}));

const { isStaleKey, keyRevisionOf, noteKeyRevision, withCurrentKey } =
  await import('./keyRevision.ts');

const stale = () => new ApiError(409, 'stale_key', STALE_KEY_MESSAGE);
const vaultAt = (key_revision: number) => ({ vault: { key_revision } as Vault });

describe('withCurrentKey', () => {
  let vaultId: string;
  beforeEach(() => {
    vaultId = crypto.randomUUID();
    noteKeyRevision(vaultId, 3);
    vi.spyOn(vaultsApi, 'get').mockResolvedValue(vaultAt(4));
    vi.spyOn(vaultsApi, 'manifest').mockResolvedValue({ manifest: { version: 5 } as Manifest });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    verify.mockReset();
    end.mockReset();
  });

  it('names the revision the vault was unlocked at', async () => {
    const write = vi.fn((rev: number) => Promise.resolve(rev));
    expect(await withCurrentKey(vaultId, write)).toBe(3);
    expect(write).toHaveBeenCalledTimes(1);
    expect(vaultsApi.get).not.toHaveBeenCalled();
  });

  it('after a password change elsewhere (the manifest still verifies), sends it again under the new revision', async () => {
    verify.mockResolvedValue({ ok: true });
    const write = vi
      .fn<(rev: number) => Promise<string>>()
      .mockRejectedValueOnce(stale())
      .mockResolvedValueOnce('saved');
    expect(await withCurrentKey(vaultId, write)).toBe('saved');
    expect(write.mock.calls.map(([rev]) => rev)).toEqual([3, 4]);
    expect(end).not.toHaveBeenCalled();
    expect(await keyRevisionOf(vaultId)).toBe(4);
  });

  it('after a rotation elsewhere (the manifest no longer verifies), locks the vault and rethrows the refusal', async () => {
    verify.mockResolvedValue({ ok: false });
    const write = vi.fn<(rev: number) => Promise<string>>().mockRejectedValue(stale());
    await expect(withCurrentKey(vaultId, write)).rejects.toThrow(STALE_KEY_MESSAGE);
    expect(write).toHaveBeenCalledTimes(1);
    expect(end).toHaveBeenCalledWith(vaultId, 'rekeyed');
  });

  it('leaves any other error alone', async () => {
    const write = vi.fn().mockRejectedValue(new ApiError(409, 'conflict', 'Taken'));
    await expect(withCurrentKey(vaultId, write)).rejects.toThrow('Taken');
    expect(vaultsApi.get).not.toHaveBeenCalled();
    expect(end).not.toHaveBeenCalled();
  });
});

describe('isStaleKey', () => {
  it('knows the refusal as an ApiError, by its message, and as the cause of another error', () => {
    expect(isStaleKey(stale())).toBe(true);
    expect(isStaleKey(new Error(STALE_KEY_MESSAGE))).toBe(true);
    expect(isStaleKey(new Error('Upload failed', { cause: stale() }))).toBe(true);
    expect(isStaleKey(new ApiError(409, 'conflict', 'Taken'))).toBe(false);
    expect(isStaleKey('stale_key')).toBe(false);
  });
});
