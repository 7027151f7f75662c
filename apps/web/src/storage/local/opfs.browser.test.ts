// The browser provider in Chromium (OPFS exists only in a browser): the provider contract, the
// quota refusal and persistence.
import { describe, expect, it } from 'vitest';
import { bytesOf, providerContract, streamOf, testHasher } from '../contract.testkit.ts';
import { withContentHash } from '../hashing.ts';
import { createLocalProvider, opfsAvailable } from './opfs.ts';

describe('the browser provider', () => {
  it('is available in Chromium', () => {
    expect(opfsAvailable()).toBe(true);
  });

  it('refuses a blob that would not fit in the browser quota, before writing anything', async () => {
    const provider = createLocalProvider();
    const vaultId = crypto.randomUUID();
    await provider.prepare(vaultId);
    const { totalBytes } = await provider.quota();
    expect(totalBytes).toBeGreaterThan(0);
    const err: unknown = await provider
      .put(vaultId, 'huge', totalBytes! + 1, streamOf(bytesOf(10)))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'no_space' });
    expect((err as Error).message).toMatch(/^This browser has no room for this file/);
    expect(await provider.list(vaultId)).toEqual([]);
    await provider.removeContainer(vaultId);
  });
});

providerContract('local (OPFS)', () =>
  Promise.resolve({
    provider: withContentHash(createLocalProvider(), testHasher),
    vaultId: crypto.randomUUID(),
  }),
);
