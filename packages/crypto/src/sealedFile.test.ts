// Files read and sealed in the Worker ([Note: files read in the Worker] in sealedFile.ts): the
// File crosses the message boundary as a Blob, the ciphertext comes back in batches and opens to
// the file's bytes followed by the padding's zeros.
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES as C, ciphertextSize } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import type { FileId, VaultId } from './ids.ts';
import { inProcessTransport, serve, workerTransport, type Transport } from './rpc.ts';
import { FILE_CHANGED } from './sealedFile.ts';
import { createCryptoService } from './service.ts';
import { diff, FAST_KDF, pattern, readAll, readUntilError, streamOf, uuid } from './testkit.ts';

const channel = new MessageChannel();
serve(channel.port2, createCryptoService());
const transport = workerTransport(channel.port1);
const calls: string[] = [];
const counted: Transport = {
  call(method, args, transfer) {
    calls.push(method);
    return transport.call(method, args, transfer);
  },
};
const client = createCryptoClient(counted);
afterAll(() => {
  channel.port1.close();
  channel.port2.close();
});

async function session(on = client) {
  const vaultId = uuid<VaultId>();
  const { key } = await on.createVault(vaultId, 'pw', FAST_KDF);
  return on.unlockVault(vaultId, key, 'pw');
}

describe('files sealed in the Worker', () => {
  it('seals a File of several batches, padded, that opens to its bytes and the zeros', async () => {
    const s = await session();
    const fileId = uuid<FileId>();
    const plain = pattern(11 * C + 7);
    const padded = plain.length + C + 100;
    calls.length = 0;
    const enc = await client.encryptFile(s, fileId, new Blob([plain]), padded);
    const ciphertext = await readAll(enc.ciphertext);
    expect(ciphertext.length).toBe(ciphertextSize(padded));
    expect(await enc.done).toEqual({ ciphertextSize: ciphertext.length, plaintextSize: padded });
    // 13 chunks of 256 KiB in batches of four: four answers and the empty one that ends it.
    expect(calls.filter((m) => m === 'readSealed')).toHaveLength(5);
    expect(calls).not.toContain('sealChunk');

    const back = await readAll(
      client.decryptFileStream(s, fileId, enc.wrappedKey, streamOf(ciphertext)),
    );
    expect(back.length).toBe(padded);
    expect(diff(back.subarray(0, plain.length), plain)).toEqual([0, -1]);
    expect(back.subarray(plain.length).every((b) => b === 0)).toBe(true);
  });

  it('seals an empty file', async () => {
    const s = await session();
    const fileId = uuid<FileId>();
    const enc = await client.encryptFile(s, fileId, new Blob([]), 0);
    const ciphertext = await readAll(enc.ciphertext);
    expect(ciphertext.length).toBe(ciphertextSize(0));
    const back = await readAll(
      client.decryptFileStream(s, fileId, enc.wrappedKey, streamOf(ciphertext)),
    );
    expect(back.length).toBe(0);
  });

  it('refuses a padded size below the file, a locked session, and a file that changed', async () => {
    const s = await session();
    await expect(client.encryptFile(s, uuid(), new Blob([pattern(10)]), 9)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const local = createCryptoClient(inProcessTransport(createCryptoService()));
    const ls = await session(local);
    /** A file whose size says more than it holds, as one cut short while it was read. */
    class Shrunk extends Blob {
      override get size() {
        return 3 * C;
      }
    }
    const enc = await local.encryptFile(ls, uuid(), new Shrunk([pattern(C)]), 4 * C);
    const { error } = await readUntilError(enc.ciphertext);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: FILE_CHANGED });
    await expect(enc.done).rejects.toMatchObject({ message: FILE_CHANGED });

    await client.closeSession(s);
    await expect(client.encryptFile(s, uuid(), new Blob([]), 0)).rejects.toMatchObject({
      code: 'LOCKED',
    });
  });

  it('ends the job in the Worker when the ciphertext is cancelled', async () => {
    const s = await session();
    const enc = await client.encryptFile(s, uuid(), new Blob([pattern(16 * C)]), 16 * C);
    const reader = enc.ciphertext.getReader();
    await reader.read(); // the header
    await reader.read(); // the first chunk
    calls.length = 0;
    await reader.cancel();
    expect(calls).toEqual(['endSealed']);
    await expect(enc.done).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
