// This device's cache of a file vault, in Chromium with the real crypto Worker and IndexedDB: what
// is saved opens again under the same vault only, a damaged copy reads as no cache, and a
// forgotten one is gone. The records prefetched before the unlock are taken once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { set, createStore } from 'idb-keyval';
import { filesApi } from '@sealvault/protocol';
import { vaultKeys } from '../crypto/vaultKeys.ts';
import { appVaultSessions, sessionOf } from '../vaults/sessionContext.tsx';
import {
  forgetLearnt,
  loadLearnt,
  prefetchFileRecords,
  saveLearnt,
  takeFileRecords,
  type Learnt,
} from './deviceCache.ts';

const vaultId = crypto.randomUUID();
const otherId = crypto.randomUUID();
const meta = { name: 'harbour.pdf', mime: 'application/pdf', size: 48213, modified: 1 };

beforeAll(async () => {
  for (const id of [vaultId, otherId]) {
    const key = await vaultKeys.create(id, 'cache test password');
    await appVaultSessions.unlock(id, key, 'cache test password');
  }
});
afterAll(() => {
  appVaultSessions.end(vaultId);
  appVaultSessions.end(otherId);
});

describe("a file vault's cache on this device", () => {
  it('saves and loads what was learnt, for this vault only', async () => {
    const learnt = new Map<string, Learnt>([
      ['a', { sig: 'k.m.l.c.100', meta, digest: '0'.repeat(32) }],
      ['b', { sig: 'k2.m2.l2.c2.200', meta: { ...meta, name: 'b.txt' }, digest: '1'.repeat(32) }],
    ]);
    await saveLearnt(vaultId, sessionOf(vaultId), learnt);
    expect(await loadLearnt(vaultId, sessionOf(vaultId))).toEqual(learnt);
    // Another vault's key does not open it: an empty cache, not an error.
    expect((await loadLearnt(vaultId, sessionOf(otherId))).size).toBe(0);
    // A damaged copy reads as no cache.
    await set(vaultId, new Uint8Array(200), createStore('sealvault-file-cache', 'vaults'));
    expect((await loadLearnt(vaultId, sessionOf(vaultId))).size).toBe(0);
    await saveLearnt(vaultId, sessionOf(vaultId), learnt);
    await forgetLearnt(vaultId);
    expect((await loadLearnt(vaultId, sessionOf(vaultId))).size).toBe(0);
  });

  it('takes records prefetched before the unlock once', async () => {
    const list = vi.spyOn(filesApi, 'list').mockResolvedValue({ files: [] });
    prefetchFileRecords(vaultId);
    expect(list).toHaveBeenCalledTimes(1);
    expect(await takeFileRecords(vaultId)).toEqual([]);
    expect(takeFileRecords(vaultId)).toBeUndefined();
    list.mockRestore();
  });
});
