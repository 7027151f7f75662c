// The real crypto Worker (browsers only; Node has no Web Worker): worker.ts serves the service and
// the client reaches it through workerTransport.
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES as C } from './chunk.ts';
import { createCryptoClient, type CryptoClient } from './client.ts';
import type { FileId, SessionId, VaultId } from './ids.ts';
import { workerTransport } from './rpc.ts';
import { diff, FAST_KDF, pattern, readAll, streamOf, uuid } from './testkit.ts';

const hasWorker = typeof Worker !== 'undefined';

/** Encrypts and decrypts a file of `size` bytes; the plaintext must come back whole. */
async function roundTrip(client: CryptoClient, session: SessionId, size: number) {
  const fileId = uuid<FileId>();
  const plain = pattern(size);
  const enc = await client.encryptFileStream(session, fileId, streamOf(plain));
  const ct = await readAll(enc.ciphertext);
  const back = await readAll(
    client.decryptFileStream(session, fileId, enc.wrappedKey, streamOf(ct)),
  );
  expect(diff(back, plain)).toEqual([0, -1]);
}

describe.runIf(hasWorker)('crypto Worker', () => {
  const worker = hasWorker
    ? new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
    : undefined;
  afterAll(() => worker?.terminate());

  it('unlocks and round trips a file with the keys inside the Worker', async () => {
    if (!worker) return;
    const client = createCryptoClient(workerTransport(worker));
    const vaultId = uuid<VaultId>();
    const { key } = await client.createVault(vaultId, 'pw', FAST_KDF);
    await expect(client.unlockVault(vaultId, key, 'bad')).rejects.toMatchObject({
      code: 'INVALID_PASSWORD',
      message: 'Invalid password',
    });
    const session = await client.unlockVault(vaultId, key, 'pw');
    await roundTrip(client, session, 2 * C + 5);
    await client.lockVault(vaultId);
    await expect(client.lookupName(session, null, 'x')).rejects.toMatchObject({ code: 'LOCKED' });
  });

  it('adds a passkey slot and unlocks with it, the PRF output moved into the Worker', async () => {
    if (!worker) return;
    const client = createCryptoClient(workerTransport(worker));
    const vaultId = uuid<VaultId>();
    const { key } = await client.createVault(vaultId, 'pw', FAST_KDF);
    const salt = crypto.getRandomValues(new Uint8Array(32));
    const prf = crypto.getRandomValues(new Uint8Array(32));
    const credentialId = 'AAECAwQFBgcICQoLDA0ODw';
    const name = 'Passkey added 27 Nov 2026';
    const withPasskey = await client.addPasskeySlot(vaultId, key, 'pw', {
      credentialId,
      name,
      salt,
      prf: prf.slice(),
    });
    const given = prf.slice();
    const session = await client.unlockWithPasskey(vaultId, withPasskey, credentialId, given);
    // Transferred, not copied: the page's buffer is detached once sent.
    expect(given.byteLength).toBe(0);
    await roundTrip(client, session, C + 1);
    await expect(
      client.unlockWithPasskey(vaultId, withPasskey, credentialId, new Uint8Array(32)),
    ).rejects.toMatchObject({ code: 'INVALID_PASSWORD', message: 'Invalid password' });
  });

  it('shares a session across a pool of real Workers (CryptoKeys cloned between them) and wipes it from each', async () => {
    const workers = [0, 1].map(
      () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }),
    );
    try {
      const pool = workers.map((w) => workerTransport(w));
      const client = createCryptoClient(pool);
      const vaultId = uuid<VaultId>();
      const { key } = await client.createVault(vaultId, 'pw', FAST_KDF);
      await client.lockVault(vaultId);
      const session = await client.unlockVault(vaultId, key, 'pw');
      await roundTrip(client, session, 5 * C + 9);
      await client.lockVault(vaultId);
      for (const t of pool) {
        await expect(t.call('lookupName', [session, null, 'x'])).rejects.toMatchObject({
          code: 'LOCKED',
        });
      }
    } finally {
      workers.forEach((w) => w.terminate());
    }
  });
});
