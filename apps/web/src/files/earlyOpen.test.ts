// What an unlock opens early (earlyOpen.ts): only for the session it was opened under, once, and
// with what the device learnt before taken as it is.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import type { Vault, VaultFile } from '@sealvault/protocol';

const decryptMetas = vi.fn();
vi.mock('../crypto/client.ts', () => ({ cryptoClient: () => ({ decryptMetas }) }));
const known = vi.fn();
vi.mock('../vaults/manifest/vaultManifest.ts', () => ({
  knownFileDigests: (k: unknown) => {
    known(k);
  },
  recordSig: (r: VaultFile) => `sig:${r.enc_meta}`,
}));
const cache = vi.hoisted(() => ({
  records: undefined as Promise<VaultFile[]> | undefined,
  learnt: new Map<string, unknown>(),
}));
vi.mock('./deviceCache.ts', () => ({
  takeFileRecords: () => {
    const r = cache.records;
    cache.records = undefined;
    return r;
  },
  loadLearnt: () => Promise.resolve(cache.learnt),
}));

const { openEarly, openRecords, takeOpened, dropOpened } = await import('./earlyOpen.ts');

const VAULT = '00000000-0000-4000-8000-000000000001';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const record = (n: number) => ({ id: id(n), enc_meta: `m${n}` }) as VaultFile;
const meta = (name: string) => ({ name, mime: 'text/plain', size: 1, modified: 0 });
const A = 'a'.repeat(32) as SessionId;
const B = 'b'.repeat(32) as SessionId;

beforeEach(() => {
  decryptMetas.mockReset();
  known.mockReset();
  cache.records = undefined;
  cache.learnt = new Map();
});

describe('openRecords', () => {
  it('decrypts only what this device did not learn from the same record, in order', async () => {
    cache.learnt = new Map([
      [id(1), { sig: 'sig:m1', meta: meta('one'), digest: 'd1' }],
      [id(2), { sig: 'sig:old', meta: meta('stale'), digest: 'd2' }],
    ]);
    decryptMetas.mockResolvedValue([meta('two'), null]);
    const opened = await openRecords(A, [record(1), record(2), record(3)], cache.learnt as never);
    expect(decryptMetas).toHaveBeenCalledWith(A, [
      { id: id(2), parentId: null, encMeta: 'm2' },
      { id: id(3), parentId: null, encMeta: 'm3' },
    ]);
    expect(opened.metas).toEqual([meta('one'), meta('two'), null]);
    expect(opened.fresh).toBe(2);
    expect(known).toHaveBeenCalledWith([{ id: id(1), ...cache.learnt.get(id(1))! }]);
  });
});

describe('openEarly', () => {
  it('is taken once, by the session it was opened under only', async () => {
    decryptMetas.mockResolvedValue([meta('x')]);
    cache.records = Promise.resolve([record(7)]);
    openEarly(VAULT, A);
    expect(takeOpened(VAULT, B)).toBeUndefined();
    expect(takeOpened(VAULT, A)).toBeUndefined(); // gone with the wrong session's attempt
    cache.records = Promise.resolve([record(7)]);
    openEarly(VAULT, A);
    const opening = takeOpened(VAULT, A)!;
    expect(await opening.records).toEqual([record(7)]);
    expect((await opening.opened).metas).toEqual([meta('x')]);
    expect(opening.vault).toBeUndefined();
    expect(takeOpened(VAULT, A)).toBeUndefined();
  });

  it('hands on the vault record the unlock read, for the first list to use', () => {
    cache.records = Promise.resolve([record(7)]);
    decryptMetas.mockResolvedValue([meta('x')]);
    const vault = { id: VAULT, key_revision: 3 } as unknown as Vault;
    openEarly(VAULT, A, vault);
    expect(takeOpened(VAULT, A)?.vault).toBe(vault);
  });

  it('does nothing without prefetched records, and is forgotten when the unlock fails', () => {
    openEarly(VAULT, A);
    expect(takeOpened(VAULT, A)).toBeUndefined();
    cache.records = Promise.resolve([record(7)]);
    decryptMetas.mockResolvedValue([meta('x')]);
    openEarly(VAULT, A);
    dropOpened(VAULT);
    expect(takeOpened(VAULT, A)).toBeUndefined();
  });
});
