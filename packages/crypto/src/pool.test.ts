// A client over a pool of crypto services ([Note: crypto pool] in client.ts): each service stands
// for one Worker, behind its own message boundary (a MessageChannel), as in the browser.
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES as C } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import { CryptoError } from './errors.ts';
import type { FileId, SessionId, VaultId } from './ids.ts';
import { serve, workerTransport, type Transport } from './rpc.ts';
import { createCryptoService } from './service.ts';
import { diff, FAST_KDF, pattern, readAll, readUntilError, streamOf, uuid } from './testkit.ts';

const ports: MessagePort[] = [];
/** One service behind a MessageChannel, like a Worker. */
function worker(): Transport {
  const channel = new MessageChannel();
  ports.push(channel.port1, channel.port2);
  serve(channel.port2, createCryptoService());
  return workerTransport(channel.port1);
}
afterAll(() => ports.forEach((p) => p.close()));

/** A transport whose chunk calls are delayed by `ms` and logged (index, when they settled). */
function slowed(inner: Transport, ms: number, log: number[]): Transport {
  return {
    call(method, args, transfer) {
      const result = inner.call(method, args, transfer);
      if (method !== 'sealChunk' && method !== 'openChunk') return result;
      const index = args[1] as number;
      return result.then(async (r) => {
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(index);
        return r;
      }) as typeof result;
    },
  };
}

async function unlocked(pool: Transport[]) {
  const client = createCryptoClient(pool);
  const vaultId = uuid<VaultId>();
  const { key } = await client.createVault(vaultId, 'pw', FAST_KDF);
  await client.lockVault(vaultId);
  const session = await client.unlockVault(vaultId, key, 'pw');
  return { client, vaultId, key, session };
}

/** Whether `t` holds the keys of `session` (a small record call needs them). */
const holds = (t: Transport, session: SessionId) =>
  t.call('lookupName', [session, null, 'x']).then(
    () => true,
    (err: unknown) => {
      if (err instanceof CryptoError && err.code === 'LOCKED') return false;
      throw err;
    },
  );

describe('a pool of crypto Workers', () => {
  it('opens an unlocked vault in every Worker and wipes it from every one on lock', async () => {
    const pool = [worker(), worker(), worker()];
    const { client, vaultId, key, session } = await unlocked(pool);
    expect(await Promise.all(pool.map((t) => holds(t, session)))).toEqual([true, true, true]);
    await client.lockVault(vaultId);
    expect(await Promise.all(pool.map((t) => holds(t, session)))).toEqual([false, false, false]);

    const again = await client.unlockVault(vaultId, key, 'pw');
    expect(await Promise.all(pool.map((t) => holds(t, again)))).toEqual([true, true, true]);
    await client.lockAll(); // sign-out and expiry
    expect(await Promise.all(pool.map((t) => holds(t, again)))).toEqual([false, false, false]);
  });

  it('shares a rotated session with every Worker, and closes just that one everywhere', async () => {
    const pool = [worker(), worker(), worker()];
    const { client, session } = await unlocked(pool);
    const rotated = await client.rotateVault(session, 'pw2', { recovery: false, kdf: FAST_KDF });
    const both = (s: SessionId) => Promise.all(pool.map((t) => holds(t, s)));
    expect(await both(rotated.session)).toEqual([true, true, true]);
    // A multi-chunk file goes through every Worker under the new session.
    const fileId = uuid<FileId>();
    const plain = pattern(3 * C + 9, 3);
    const enc = await client.encryptFileStream(rotated.session, fileId, streamOf(plain));
    const ct = await readAll(enc.ciphertext);
    const out = await readAll(
      client.decryptFileStream(rotated.session, fileId, enc.wrappedKey, streamOf(ct)),
    );
    expect(diff(out, plain)).toEqual([0, -1]);
    await client.closeSession(rotated.session);
    expect(await both(rotated.session)).toEqual([false, false, false]);
    expect(await both(session)).toEqual([true, true, true]);
  });

  it('round-trips files of any size, in the format a single Worker reads and writes', async () => {
    const pool = [worker(), worker(), worker()];
    const { client, key, vaultId, session } = await unlocked(pool);
    const single = createCryptoClient(worker());
    const s1 = await single.unlockVault(vaultId, key, 'pw');
    for (const size of [0, 1, C, C + 1, 7 * C + 5]) {
      const fileId = uuid<FileId>();
      const plain = pattern(size, size + 7);
      const enc = await client.encryptFileStream(session, fileId, streamOf(plain, 70_000));
      const ct = await readAll(enc.ciphertext);
      expect(await enc.done).toEqual({ ciphertextSize: ct.length, plaintextSize: size });
      const bySingle = single.decryptFileStream(s1, fileId, enc.wrappedKey, streamOf(ct));
      expect(diff(await readAll(bySingle), plain)).toEqual([0, -1]);

      const enc1 = await single.encryptFileStream(s1, fileId, streamOf(plain));
      const ct1 = await readAll(enc1.ciphertext);
      const byPool = client.decryptFileStream(session, fileId, enc1.wrappedKey, streamOf(ct1));
      expect(diff(await readAll(byPool), plain)).toEqual([0, -1]);
    }
  });

  it('keeps chunk order when the Workers finish out of order', async () => {
    const log: number[] = [];
    const pool = [slowed(worker(), 15, log), slowed(worker(), 0, log)];
    const { client, session } = await unlocked(pool);
    const fileId = uuid<FileId>();
    const plain = pattern(9 * C + 3, 5);
    const enc = await client.encryptFileStream(session, fileId, streamOf(plain));
    const ct = await readAll(enc.ciphertext);
    const back = await readAll(
      client.decryptFileStream(session, fileId, enc.wrappedKey, streamOf(ct)),
    );
    expect(diff(back, plain)).toEqual([0, -1]);
    // The fast Worker's odd chunks did finish before the slow one's even chunks.
    expect(log).not.toEqual([...log].sort((a, b) => a - b));
  });

  it('fails the stream with the code of the Worker that failed', async () => {
    const pool = [worker(), worker()];
    const { client, session } = await unlocked(pool);
    const fileId = uuid<FileId>();
    const plain = pattern(6 * C, 9);
    const enc = await client.encryptFileStream(session, fileId, streamOf(plain));
    const ct = await readAll(enc.ciphertext);
    // Chunk 3 is opened by the second Worker: a flipped bit there fails the whole stream.
    const bad = ct.slice();
    bad[72 + 3 * (C + 16) + 10]! ^= 1;
    const res = await readUntilError(
      client.decryptFileStream(session, fileId, enc.wrappedKey, streamOf(bad)),
    );
    expect(res.error).toMatchObject({ code: 'DECRYPT_FAILED' });
    expect(res.bytes.length).toBeLessThanOrEqual(3 * C);

    // The second Worker alone loses the keys: encryption fails with LOCKED, not a hang.
    await pool[1]!.call('lockAll', []);
    const enc2 = await client
      .encryptFileStream(session, uuid<FileId>(), streamOf(plain))
      .catch((e: unknown) => e);
    expect(enc2).toMatchObject({ code: 'LOCKED' });
  });

  it('digests content-hash blocks in the Workers, round robin, handing each block back', async () => {
    const calls: number[] = [];
    const pool = [0, 1].map((i): Transport => {
      const inner = worker();
      return {
        call(method, args, transfer) {
          if (method === 'digestBlock') calls.push(i);
          return inner.call(method, args, transfer);
        },
      };
    });
    const client = createCryptoClient(pool);
    for (const size of [0, 1, 4 * 1024 * 1024]) {
      const block = pattern(size, 3);
      const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', block));
      const { digest, block: back } = await client.digestBlock(block.slice());
      expect(digest).toEqual(expected);
      expect(diff(back, block)).toEqual([0, -1]);
    }
    expect(calls).toEqual([0, 1, 0]);
  });

  it('hands each lane of an encryption out once, and only from the Worker that began it', async () => {
    const a = createCryptoService();
    const b = createCryptoService();
    const vaultId = uuid<VaultId>();
    const { session } = await a.createVault(vaultId, 'pw', FAST_KDF);
    const give = async () => {
      const { port1, port2 } = new MessageChannel();
      await a.sendSession(session, port1);
      return b.receiveSession(port2);
    };
    expect(await give()).toBe(session);
    const { job } = await a.beginEncrypt(session, uuid<FileId>(), 2);
    const lane = async (from = a, j = job, n = 1) => {
      const { port1, port2 } = new MessageChannel();
      const [sent, got] = await Promise.allSettled([
        from.sendLane(j, n, port1),
        b.receiveLane(port2),
      ]);
      if (sent.status === 'rejected') throw sent.reason;
      if (got.status === 'rejected') throw got.reason;
      return got.value;
    };
    const bJob = await lane();
    await expect(lane()).rejects.toMatchObject({ code: 'INVALID_INPUT' }); // lane 1 again
    await expect(lane(a, job, 2)).rejects.toMatchObject({ code: 'INVALID_INPUT' }); // no lane 2
    await expect(lane(b, bJob, 0)).rejects.toMatchObject({ code: 'INVALID_INPUT' }); // not begun by b
    // b seals only lane 1's indices (1, 3, 5, ...), in order; a only lane 0's.
    await expect(b.sealChunk(bJob, 0, new Uint8Array(C), false)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await b.sealChunk(bJob, 1, new Uint8Array(C), false);
    await expect(b.sealChunk(bJob, 2, new Uint8Array(C), false)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(a.sealChunk(job, 1, new Uint8Array(C), false)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
