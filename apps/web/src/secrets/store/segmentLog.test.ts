// The segment log wired to a provider and the manifest protocol (segmentLog.ts), with both kept in
// memory: a folder of blobs, and a manifest server with compare-and-swap that two devices share.
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../storage/provider.ts';
import { memoryStore } from '../../vaults/manifest/deviceStore.ts';
import {
  createManifestCore,
  type ManifestRecord,
  type UnsignedManifestRecord,
} from '../../vaults/manifest/manifestCore.ts';
import { digestOf, item, itemId, tombstone } from '../segments/log.testkit.ts';
import { MAX_SEGMENTS } from '../segments/compaction.ts';
import {
  compactLog,
  forgetSegments,
  LogConflictError,
  prefetchSegments,
  readLog,
  writeLog,
  type LogDeps,
} from './segmentLog.ts';

const VAULT = '00000000-0000-4000-8000-0000000000aa';

/** The vault's folder in a provider: blob name -> bytes, counting reads. */
function folder() {
  const blobs = new Map<string, Uint8Array>();
  const reads: string[] = [];
  const provider: LogDeps['blobs'] = {
    put: async (_v, name, length, source) => {
      const bytes = new Uint8Array(await new Response(source).arrayBuffer());
      expect(bytes.length).toBe(length);
      blobs.set(name, bytes);
      return { ref: name, size: length, contentHash: '' };
    },
    get: (_v, name) => {
      reads.push(name);
      const bytes = blobs.get(name);
      if (!bytes) return Promise.reject(new StorageError('not_found', 'missing'));
      return Promise.resolve(new Response(bytes.slice()).body!);
    },
    delete: (_v, name) => {
      blobs.delete(name);
      return Promise.resolve();
    },
    list: () => Promise.resolve([...blobs].map(([ref, b]) => ({ ref, size: b.length }))),
  };
  return { blobs, reads, provider };
}

/** Our server's manifest row, with compare-and-swap on its version. */
function manifestServer() {
  let stored: ManifestRecord | null = null;
  return {
    get version() {
      return stored?.version ?? 0;
    },
    fetch: () => Promise.resolve(stored ? structuredClone(stored) : null),
    put: (_v: string, expected: number, m: ManifestRecord) => {
      if ((stored?.version ?? 0) !== expected) return Promise.resolve(false);
      stored = structuredClone(m);
      return Promise.resolve(true);
    },
  };
}

const macOf = (m: UnsignedManifestRecord) => `mac:${JSON.stringify(m)}`;

/** One device: its own manifest protocol (and device store) over the shared server and folder. */
async function device(
  srv: ReturnType<typeof manifestServer>,
  f: ReturnType<typeof folder>,
  create = false,
): Promise<LogDeps> {
  const core = createManifestCore<string>({
    fetch: srv.fetch,
    put: srv.put,
    store: memoryStore(),
    sign: (_s, _v, u) => Promise.resolve({ ...u, mac: macOf(u) }),
    verify: (_s, _v, m) => {
      const { mac, ...u } = m;
      return Promise.resolve({ ok: mac === macOf(u), hash: `h${m.version}:${mac.length}` });
    },
    chain: (seen, next) => (seen && next.version < seen.version ? 'older' : 'ok'),
  });
  if (create)
    await core.create('s', VAULT, {
      vault: {
        name: 'V',
        description: '',
        vault_type: 'secrets',
        provider_type: 'dropbox',
        storage_folder: 'f',
      },
      slots: ['slot'],
      files: [],
      secrets: [],
      segments: [],
    });
  return {
    vaultId: VAULT,
    blobs: f.provider,
    manifests: {
      load: () => core.load('s', VAULT),
      commit: (change) => core.commit('s', VAULT, change),
    },
    digestOf,
  };
}

async function setup() {
  forgetSegments(VAULT);
  const srv = manifestServer();
  const f = folder();
  const a = await device(srv, f, true);
  const b = await device(srv, f);
  return { srv, f, a, b };
}

describe('the segment log in a provider', () => {
  it('refuses a write to a provider the vault has left, and removes its segment', async () => {
    const { f, a, b } = await setup();
    await writeLog(a, [item(1, 1)]);
    // B moved the vault to Google Drive (issue 27); A still writes to Dropbox.
    await b.manifests.commit((m) => ({
      ...m,
      vault: { ...m.vault, provider_type: 'googledrive' },
    }));
    const before = f.blobs.size;
    await expect(writeLog({ ...a, providerType: 'dropbox' }, [item(2, 1)])).rejects.toThrow(
      'This vault was moved to Google Drive on another device. Reload the page to use it there.',
    );
    expect(f.blobs.size).toBe(before);
  });

  it('writes a change as one segment and reads back only what the manifest vouches for', async () => {
    const { f, a } = await setup();
    await writeLog(a, [item(1, 1), item(2, 1)]);
    await writeLog(a, [item(1, 2), tombstone(2, 1)]);
    expect(f.blobs.size).toBe(2);
    forgetSegments(VAULT);
    const read = await readLog(a);
    expect(read?.items).toEqual([item(1, 2)]);
    expect(read?.clean).toBe(true);
    expect(read?.pins).toHaveLength(2);
  });

  it('answers null for a vault whose manifest pins no segments (items still on our server)', async () => {
    const srv = manifestServer();
    const f = folder();
    const d = await device(srv, f);
    expect(await readLog(d)).toBeNull();
  });

  it('fetches each verified segment once: a reload after an edit reads only the new one', async () => {
    const { f, a } = await setup();
    await writeLog(a, [item(1, 1)]);
    forgetSegments(VAULT);
    await readLog(a);
    expect(f.reads).toHaveLength(1);
    await writeLog(a, [item(2, 1)]);
    await readLog(a);
    expect(f.reads).toHaveLength(1); // the segment it wrote was cached as it was sealed
  });

  it('prefetches what an unverified list names, answering its live items, and a read takes only what its manifest pins', async () => {
    const { srv, f, a } = await setup();
    await writeLog(a, [item(1, 1), item(2, 1)]);
    await writeLog(a, [tombstone(2, 1), item(3, 1)]);
    const pins = (await srv.fetch())!.segments!;
    forgetSegments(VAULT);
    // A list the server made up: a pin whose bytes are not what it says is fetched, not kept.
    const madeUp = [...pins, ['00000000-0000-4000-8000-00000000beef', 'x'.repeat(43)] as const];
    const items = await prefetchSegments(a, madeUp);
    expect(items.map((i) => i.id).sort()).toEqual([itemId(1), itemId(3)]); // 2 was deleted
    expect(f.reads).toHaveLength(3);
    const read = await readLog(a);
    expect(read?.items.map((i) => i.id)).toEqual([itemId(1), itemId(3)]);
    expect(f.reads).toHaveLength(3); // the verified pins came from what was prefetched
  });

  it('lands two devices writing different items at once', async () => {
    const { srv, a, b } = await setup();
    await Promise.all([writeLog(a, [item(1, 1)]), writeLog(b, [item(2, 1)])]);
    expect(srv.version).toBe(3);
    const read = await readLog(b);
    expect(read?.items.map((i) => i.id)).toEqual([itemId(1), itemId(2)]);
    expect(read?.clean).toBe(true);
  });

  it('refuses the second of two writes to one item, and deletes its segment', async () => {
    const { f, a, b } = await setup();
    await writeLog(a, [item(1, 1)]);
    await writeLog(a, [item(1, 2, ' by a')]);
    const before = f.blobs.size;
    // b edited revision 1 too, without having seen a's edit.
    await expect(writeLog(b, [item(1, 2, ' by b')])).rejects.toBeInstanceOf(LogConflictError);
    expect(f.blobs.size).toBe(before);
    expect((await readLog(b))?.items).toEqual([item(1, 2, ' by a')]);
  });

  it('names a dropped and a swapped segment, and shows none of what they held', async () => {
    const { f, a } = await setup();
    await writeLog(a, [item(1, 1)]);
    await writeLog(a, [item(2, 1)]);
    await writeLog(a, [item(3, 1)]);
    const [first, second] = [...f.blobs.keys()];
    f.blobs.delete(first!);
    f.blobs.set(second!, new TextEncoder().encode('{"format":"vf1-segments","records":[]}'));
    forgetSegments(VAULT);
    const read = await readLog(a);
    expect(read?.items.map((i) => i.id)).toEqual([itemId(3)]);
    expect(read?.problems.map((p) => p.kind).sort()).toEqual([
      'dropped',
      'missing',
      'missing',
      'swapped',
    ]);
    expect(read?.clean).toBe(false);
    expect(await compactLog(a, read!)).toBe(false); // never a snapshot of a log with problems
  });

  it('compacts a long log into one snapshot and deletes the segments it replaces', async () => {
    const { f, a } = await setup();
    for (let n = 1; n <= MAX_SEGMENTS + 1; n += 1) await writeLog(a, [item(n, 1)]);
    const before = await readLog(a);
    expect(before?.pins).toHaveLength(MAX_SEGMENTS + 1);
    expect(await compactLog(a, before!)).toBe(true);
    expect(f.blobs.size).toBe(1);
    forgetSegments(VAULT);
    const after = await readLog(a);
    expect(after?.pins).toHaveLength(1);
    expect(after?.items).toEqual(before?.items);
    expect(after?.clean).toBe(true);
  });

  it('drops a compaction when another device wrote meanwhile, keeping its write', async () => {
    const { f, a, b } = await setup();
    for (let n = 1; n <= MAX_SEGMENTS + 1; n += 1) await writeLog(a, [item(n, 1)]);
    const read = await readLog(a);
    await writeLog(b, [item(99, 1)]);
    const blobs = f.blobs.size;
    expect(await compactLog(a, read!)).toBe(false);
    expect(f.blobs.size).toBe(blobs); // its snapshot removed, nothing else
    expect((await readLog(a))?.items.map((i) => i.id)).toContain(itemId(99));
  });
});
