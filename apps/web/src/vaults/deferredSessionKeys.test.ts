import { expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import type { VaultKey } from '@sealvault/protocol';
import { deferredSessionKeys } from './deferredSessionKeys.ts';
import type { SessionKeys } from './vaultSessions.ts';

const slot = {} as VaultKey;

function fakeKeys(calls: string[]): SessionKeys {
  return {
    unlock: vi.fn((id: string) => {
      calls.push(`unlock ${id}`);
      return Promise.resolve(`handle-${id}` as SessionId);
    }),
    lock: vi.fn((id: string) => void calls.push(`lock ${id}`)),
  };
}

it('loads the keys on the first call, once, not when made', async () => {
  const calls: string[] = [];
  const load = vi.fn(() => Promise.resolve(fakeKeys(calls)));
  const keys = deferredSessionKeys(load);
  expect(load).not.toHaveBeenCalled();
  await expect(keys.unlock('a', slot, 'pw')).resolves.toBe('handle-a');
  await keys.unlock('b', slot, 'pw');
  expect(load).toHaveBeenCalledTimes(1);
  expect(calls).toEqual(['unlock a', 'unlock b']);
});

it('reaches the keys in the order asked: a lock before a later unlock of the same vault', async () => {
  const calls: string[] = [];
  let resolve: (k: SessionKeys) => void = () => undefined;
  const keys = deferredSessionKeys(() => new Promise((r) => (resolve = r)));
  keys.lock('a');
  const unlocked = keys.unlock('a', slot, 'pw');
  keys.lock('b');
  resolve(fakeKeys(calls));
  await unlocked;
  await Promise.resolve();
  expect(calls).toEqual(['lock a', 'unlock a', 'lock b']);
});

it('tries the load again after a failure, and a lock while it fails rejects nothing', async () => {
  const calls: string[] = [];
  const load = vi
    .fn<() => Promise<SessionKeys>>()
    .mockRejectedValueOnce(new Error('offline'))
    .mockResolvedValue(fakeKeys(calls));
  const keys = deferredSessionKeys(load);
  keys.lock('a');
  await expect(keys.unlock('a', slot, 'pw')).rejects.toThrow('offline');
  await expect(keys.unlock('a', slot, 'pw')).resolves.toBe('handle-a');
  expect(load).toHaveBeenCalledTimes(2);
  expect(calls).toEqual(['unlock a']);
});
