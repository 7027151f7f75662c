import { describe, expect, it } from 'vitest';
import { memoryStore } from './deviceStore.ts';
import {
  createManifestCore,
  entriesWith,
  integrityTexts,
  PRIMED_MS,
  VaultIntegrityError,
  type ManifestDeps,
  type ManifestRecord,
  type UnsignedManifestRecord,
} from './manifestCore.ts';
import type { ManifestEntries } from './problems.ts';

const VAULT = '00000000-0000-4000-8000-000000000001';
const empty: ManifestEntries = {
  vault: {
    name: 'V',
    description: '',
    vault_type: 'secrets',
    provider_type: 'server',
    storage_folder: '',
  },
  slots: ['s1'],
  files: [],
  secrets: [],
};

// A stand-in for the Worker's MAC: good enough to tell a manifest this "key" signed from one it
// did not; the real MAC is tested in packages/crypto.
const macOf = (key: string, m: UnsignedManifestRecord) => `${key}:${JSON.stringify(m)}`;
const hashOf = (m: ManifestRecord) => `h(${m.version}:${m.mac.length}:${m.mac.slice(-12)})`;

function server() {
  let stored: ManifestRecord | null = null;
  let puts = 0;
  let fetches = 0;
  return {
    get stored() {
      return stored;
    },
    set stored(m) {
      stored = m;
    },
    get puts() {
      return puts;
    },
    get fetches() {
      return fetches;
    },
    fetch: () => {
      fetches += 1;
      return Promise.resolve(stored ? structuredClone(stored) : null);
    },
    put: (_v: string, expected: number, m: ManifestRecord) => {
      puts += 1;
      if ((stored?.version ?? 0) !== expected) return Promise.resolve(false);
      stored = structuredClone(m);
      return Promise.resolve(true);
    },
  };
}

function core(srv: ReturnType<typeof server>, store = memoryStore(), key = 'k') {
  return createManifestCore<string>(deps(srv, store, key));
}

function deps(
  srv: ReturnType<typeof server>,
  store = memoryStore(),
  key = 'k',
): ManifestDeps<string> {
  return {
    fetch: srv.fetch,
    put: srv.put,
    store,
    sign: (_s, _v, u) => Promise.resolve({ ...u, mac: macOf(key, u) }),
    verify: (_s, _v, m) => {
      const { mac, ...u } = m;
      return Promise.resolve({ ok: mac === macOf(key, u), hash: hashOf(m) });
    },
    chain: (seen, next, nextHash) => {
      if (!seen) return 'ok';
      if (next.version < seen.version) return 'older';
      if (next.version === seen.version) return nextHash === seen.hash ? 'ok' : 'fork';
      if (next.version === seen.version + 1) return next.prev === seen.hash ? 'ok' : 'fork';
      return 'newer-unlinked';
    },
  };
}

async function commitOrFail(
  c: ReturnType<typeof core>,
  ...args: Parameters<ReturnType<typeof core>['commit']>
) {
  const done = await c.commit(...args);
  if (!done) throw new Error('no manifest');
  return done;
}

describe('manifest core', () => {
  it('creates version 1, commits versions chained to the previous, and remembers the highest', async () => {
    const srv = server();
    const store = memoryStore();
    const c = core(srv, store);
    const v1 = await c.create('s', VAULT, empty);
    expect(v1.manifest.version).toBe(1);
    expect(v1.manifest.prev).toBe('');
    const v2 = await commitOrFail(c, 's', VAULT, (m) =>
      entriesWith.secret(m, 'b', { revision: 1, digest: 'x' }),
    );
    expect(v2.manifest.version).toBe(2);
    expect(v2.manifest.prev).toBe(v1.hash);
    expect(v2.manifest.secrets).toEqual([['b', 1, 'x']]);
    expect(await store.get(VAULT)).toEqual({ version: 2, hash: v2.hash });
  });

  it('refuses a rolled-back, forged, forked or withheld manifest with the words the user reads', async () => {
    const srv = server();
    const c = core(srv);
    const v1 = await c.create('s', VAULT, empty);
    await c.commit('s', VAULT, (m) => entriesWith.file(m, 'f', 'd'));
    srv.stored = v1.manifest; // rolled back
    await expect(c.load('s', VAULT)).rejects.toThrow(integrityTexts.older(1, 2));
    srv.stored = { ...v1.manifest, version: 2, prev: v1.hash, mac: 'forged' };
    await expect(c.load('s', VAULT)).rejects.toThrow(integrityTexts.invalid);
    // Same version, other contents, correctly signed (e.g. another write this device never saw).
    const other = await core(server(), memoryStore()).create('s', VAULT, {
      ...empty,
      slots: ['zz'],
    });
    srv.stored = { ...other.manifest, version: 2, prev: 'elsewhere' };
    const { mac, ...u } = srv.stored;
    srv.stored = { ...srv.stored, mac: macOf('k', u) };
    expect(mac).not.toBe(srv.stored.mac);
    await expect(c.load('s', VAULT)).rejects.toThrow(integrityTexts.fork(2));
    srv.stored = null;
    await expect(c.load('s', VAULT)).rejects.toBeInstanceOf(VaultIntegrityError);
    await expect(c.load('s', VAULT)).rejects.toThrow(integrityTexts.missing(2));
  });

  it('re-reads and re-applies a change after losing a race', async () => {
    const srv = server();
    const a = core(srv, memoryStore());
    const b = core(srv, memoryStore());
    await a.create('s', VAULT, empty);
    await b.load('s', VAULT);
    let calls = 0;
    const done = await commitOrFail(a, 's', VAULT, async (m) => {
      calls += 1;
      // B writes between A's read and A's write, once.
      if (calls === 1) await b.commit('s', VAULT, (n) => entriesWith.file(n, 'from-b', 'd'));
      return entriesWith.file(m, 'from-a', 'd');
    });
    expect(calls).toBe(2);
    expect(done.manifest.version).toBe(3);
    expect(done.manifest.files.map(([id]) => id)).toEqual(['from-a', 'from-b']);
  });

  it('builds a commit on the manifest it last accepted, and reads the server only when that is stale', async () => {
    const srv = server();
    const a = core(srv, memoryStore());
    const b = core(srv, memoryStore());
    await a.create('s', VAULT, empty);
    const before = srv.fetches;
    await commitOrFail(a, 's', VAULT, (m) => entriesWith.file(m, 'a1', 'd'));
    await commitOrFail(a, 's', VAULT, (m) => entriesWith.file(m, 'a2', 'd'));
    expect(srv.fetches).toBe(before); // two commits, no read: A wrote the versions it builds on
    await commitOrFail(b, 's', VAULT, (m) => entriesWith.file(m, 'b1', 'd'));
    const puts = srv.puts;
    const done = await commitOrFail(a, 's', VAULT, (m) => entriesWith.file(m, 'a3', 'd'));
    expect(srv.puts - puts).toBe(2); // the held version 3 was refused by the swap, then retried
    expect(done.manifest.version).toBe(5);
    expect(done.manifest.files.map(([id]) => id)).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  // [Note: manifest at unlock]
  it("answers the unlock's verified manifest to the vault's next load only, once, while fresh", async () => {
    const srv = server();
    const c = core(srv);
    await c.create('s', VAULT, empty);
    const unlocked = await c.accept('s', VAULT, srv.stored!);
    const before = srv.fetches;
    c.prime('s', VAULT, unlocked);
    expect(await c.load('s', VAULT)).toBe(unlocked);
    expect(srv.fetches).toBe(before);
    await c.load('s', VAULT); // taken once: the next load asks the server
    expect(srv.fetches).toBe(before + 1);
    // Not for another session, nor once this page wrote a newer version, nor when stale.
    c.prime('s', VAULT, unlocked);
    await c.load('other', VAULT);
    expect(srv.fetches).toBe(before + 2);
    c.prime('s', VAULT, unlocked);
    await c.commit('s', VAULT, (m) => entriesWith.file(m, 'f', 'd'));
    expect((await c.load('s', VAULT))?.manifest.version).toBe(2);
    let now = 1_000;
    const timed = createManifestCore<string>({ ...deps(srv), now: () => now });
    const v2 = await timed.accept('s', VAULT, srv.stored!);
    timed.prime('s', VAULT, v2);
    now += PRIMED_MS;
    const fetched = srv.fetches;
    await timed.load('s', VAULT);
    expect(srv.fetches).toBe(fetched + 1);
  });

  it('a vault without a manifest that this device never saw loads as none and commits nothing', async () => {
    const srv = server();
    expect(await core(srv).load('s', VAULT)).toBeNull();
    expect(await core(srv).commit('s', VAULT, (m) => m)).toBeNull();
    expect(srv.puts).toBe(0);
  });
});

describe('the device store', () => {
  it('keeps what it saw in memory when IndexedDB is refused', async () => {
    // Node has no indexedDB: every IndexedDB call throws, as in a private mode that refuses it.
    const { indexedDbStore } = await import('./deviceStore.ts');
    const store = indexedDbStore();
    expect(await store.get(VAULT)).toBeNull();
    await store.put(VAULT, { version: 3, hash: 'h3' });
    expect(await store.get(VAULT)).toEqual({ version: 3, hash: 'h3' });
    await store.remove(VAULT);
    expect(await store.get(VAULT)).toBeNull();
  });
});
