// The client over a real message boundary (a MessageChannel standing in for the Worker): the
// same results as in-process, buffers moved not copied, errors rebuilt from `{ code, message }`.
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES as C } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import type { FileId, VaultId } from './ids.ts';
import { CryptoError } from './errors.ts';
import { serve, transferablesOf, workerTransport, type Transport } from './rpc.ts';
import { createCryptoService } from './service.ts';
import { diff, FAST_KDF, pattern, readAll, streamOf, uuid } from './testkit.ts';

const channel = new MessageChannel();
serve(channel.port2, createCryptoService());
const transport = workerTransport(channel.port1);

/** Records what each call moved, to check that chunk buffers are transferred. */
const moved: { method: string; detached: boolean }[] = [];
const spying: Transport = {
  call(method, args, transfer) {
    const result = transport.call(method, args, transfer);
    const buffers = transfer ?? [];
    moved.push({
      method,
      detached:
        buffers.length > 0 && buffers.every((b) => b instanceof ArrayBuffer && b.byteLength === 0),
    });
    return result;
  },
};
const client = createCryptoClient(spying, { concurrency: 3 });

afterAll(() => {
  channel.port1.close();
  channel.port2.close();
});

describe('client across a message boundary', () => {
  it('creates, unlocks, encrypts and decrypts a multi-chunk file', async () => {
    const vaultId = uuid<VaultId>();
    const { key } = await client.createVault(vaultId, 'pw', FAST_KDF);
    const session = await client.unlockVault(vaultId, key, 'pw');
    const fileId = uuid<FileId>();
    const plain = pattern(4 * C + 3);
    const enc = await client.encryptFileStream(session, fileId, streamOf(plain));
    const ct = await readAll(enc.ciphertext);
    expect((await enc.done).ciphertextSize).toBe(ct.length);
    const back = await readAll(
      client.decryptFileStream(session, fileId, enc.wrappedKey, streamOf(ct)),
    );
    expect(diff(back, plain)).toEqual([0, -1]);
    const chunkCalls = moved.filter((m) => m.method === 'sealChunk' || m.method === 'openChunk');
    expect(chunkCalls).toHaveLength(10);
    expect(chunkCalls.every((m) => m.detached)).toBe(true);
  });

  it('rebuilds errors as CryptoError with the same code and message', async () => {
    const vaultId = uuid<VaultId>();
    const { key } = await client.createVault(vaultId, 'pw', FAST_KDF);
    const err: unknown = await client.unlockVault(vaultId, key, 'wrong').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CryptoError);
    expect(err).toMatchObject({ code: 'INVALID_PASSWORD', message: 'Invalid password' });
    await expect(client.lookupName('nope' as never, null, 'x')).rejects.toMatchObject({
      code: 'LOCKED',
    });
  });

  it('answers an unknown method with INVALID_INPUT and hides internal errors', async () => {
    await expect(transport.call('nope' as never, [] as never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const broken = createCryptoService();
    broken.lockAll = () => Promise.reject(new Error('secret detail'));
    const ch = new MessageChannel();
    serve(ch.port2, broken);
    const err: unknown = await workerTransport(ch.port1)
      .call('lockAll', [])
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'INTERNAL', message: 'Internal crypto error' });
    ch.port1.close();
    ch.port2.close();
  });

  it('transfers only buffers it fully owns', () => {
    const whole = new Uint8Array(8);
    expect(transferablesOf(whole)).toEqual([whole.buffer]);
    expect(transferablesOf(whole.subarray(2))).toEqual([]);
    expect(transferablesOf({ header: whole, other: 1 })).toEqual([whole.buffer]);
  });
});
