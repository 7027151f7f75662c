// Files read and sealed in the Worker ([Note: files read in the Worker] in sealedFile.ts): the
// File crosses the message boundary as a Blob, the ciphertext comes back in batches and opens to
// the file's bytes followed by the padding's zeros.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES as C, ciphertextSize } from './chunk.ts';
import { createCryptoClient } from './client.ts';
import type { FileId, VaultId } from './ids.ts';
import { inProcessTransport, serve, workerTransport, type Transport } from './rpc.ts';
import { UNREADABLE, type SealedPiece } from './sealedFile.ts';
import { blockDigest } from './contentHash.ts';
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

/** The pieces a stream yields, each copied. */
async function piecesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const piece of stream) out.push(piece.slice());
  return out;
}

function joined(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

async function session(on = client) {
  const vaultId = uuid<VaultId>();
  const { key } = await on.createVault(vaultId, 'pw', FAST_KDF);
  return on.unlockVault(vaultId, key, 'pw');
}

describe('files sealed in the Worker', () => {
  it('seals a File into 4 MiB pieces, padded, that open to its bytes and the zeros', async () => {
    const s = await session();
    const fileId = uuid<FileId>();
    const plain = pattern(20 * C + 7);
    const padded = plain.length + C + 100;
    calls.length = 0;
    const enc = await client.encryptFile(s, fileId, new Blob([plain]), padded);
    const pieces = await piecesOf(enc.ciphertext);
    const ciphertext = joined(pieces);
    expect(ciphertext.length).toBe(ciphertextSize(padded));
    expect(pieces.map((p) => p.length)).toEqual([4 * 2 ** 20, ciphertext.length - 4 * 2 ** 20]);
    expect(await enc.done).toEqual({ ciphertextSize: ciphertext.length, plaintextSize: padded });
    // One piece per answer, and the empty one that ends it; no chunk crossed on its own.
    expect(calls.filter((m) => m === 'readSealed')).toHaveLength(3);
    expect(calls).not.toContain('sealChunk');

    const back = await readAll(
      client.decryptFileStream(s, fileId, enc.wrappedKey, streamOf(ciphertext)),
    );
    expect(back.length).toBe(padded);
    expect(diff(back.subarray(0, plain.length), plain)).toEqual([0, -1]);
    expect(back.subarray(plain.length).every((b) => b === 0)).toBe(true);
  });

  it('cuts the pieces it is asked for', async () => {
    const s = await session();
    const enc = await client.encryptFile(s, uuid(), new Blob([pattern(3 * C)]), 3 * C, 100_000);
    const sizes = (await piecesOf(enc.ciphertext)).map((p) => p.length);
    expect(sizes.slice(0, -1).every((n) => n === 100_000)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(ciphertextSize(3 * C));
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

  it('refuses a padded size below the file and a locked session', async () => {
    const s = await session();
    await expect(client.encryptFile(s, uuid(), new Blob([pattern(10)]), 9)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await client.closeSession(s);
    await expect(client.encryptFile(s, uuid(), new Blob([]), 0)).rejects.toMatchObject({
      code: 'LOCKED',
    });
  });

  // Node's file Blobs check that the file is unchanged, as browsers do; a browser test page has
  // no file of its own to change.
  it.runIf(typeof window === 'undefined')(
    'fails a file changed after it was picked, rather than seal other bytes',
    async () => {
      const local = createCryptoClient(inProcessTransport(createCryptoService()));
      const ls = await session(local);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealed-'));
      const where = path.join(dir, 'f.bin');
      fs.writeFileSync(where, pattern(3 * C));
      const picked = await fs.openAsBlob(where);
      fs.writeFileSync(where, pattern(C));
      const enc = await local.encryptFile(ls, uuid(), picked, 4 * C);
      const { error } = await readUntilError(enc.ciphertext);
      expect(error).toMatchObject({ code: 'INVALID_INPUT', message: UNREADABLE });
      await expect(enc.done).rejects.toMatchObject({ message: UNREADABLE });
      fs.rmSync(dir, { recursive: true });
    },
  );

  it('ends the job in the Worker when the ciphertext is cancelled', async () => {
    const s = await session();
    const enc = await client.encryptFile(s, uuid(), new Blob([pattern(40 * C)]), 40 * C);
    const reader = enc.ciphertext.getReader();
    await reader.read(); // the first piece
    calls.length = 0;
    await reader.cancel();
    expect(calls).toEqual(['endSealed']);
    await expect(enc.done).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  // [Note: sealed pieces as Blobs]: the same ciphertext, each piece a Blob with its digest.
  describe('as Blobs', () => {
    it('hands over Blob pieces and their digests that open to the padded file', async () => {
      const s = await session();
      const fileId = uuid<FileId>();
      const plain = pattern(20 * C + 7);
      const padded = plain.length + C + 100;
      calls.length = 0;
      const enc = await client.encryptFilePieces(s, fileId, new Blob([plain]), padded);
      const pieces: SealedPiece[] = [];
      for await (const piece of enc.ciphertext) pieces.push(piece);
      expect(pieces.every((p) => p.blob instanceof Blob)).toBe(true);
      const bytes = await Promise.all(
        pieces.map(async (p) => new Uint8Array(await p.blob.arrayBuffer())),
      );
      const ciphertext = joined(bytes);
      expect(ciphertext.length).toBe(ciphertextSize(padded));
      expect(bytes.map((b) => b.length)).toEqual([4 * 2 ** 20, ciphertext.length - 4 * 2 ** 20]);
      // Each digest is its own piece's, although the Worker fills one buffer for every piece.
      for (const [i, p] of pieces.entries()) expect(p.digest).toEqual(await blockDigest(bytes[i]!));
      expect(await enc.done).toEqual({ ciphertextSize: ciphertext.length, plaintextSize: padded });
      expect(calls.filter((m) => m === 'readSealedPieces')).toHaveLength(3);
      expect(calls).not.toContain('readSealed');

      const back = await readAll(
        client.decryptFileStream(s, fileId, enc.wrappedKey, streamOf(ciphertext)),
      );
      expect(diff(back.subarray(0, plain.length), plain)).toEqual([0, -1]);
      expect(back.subarray(plain.length).every((b) => b === 0)).toBe(true);
    });

    it('seals an empty file into one piece, the header', async () => {
      const s = await session();
      const enc = await client.encryptFilePieces(s, uuid(), new Blob([]), 0);
      const pieces: SealedPiece[] = [];
      for await (const piece of enc.ciphertext) pieces.push(piece);
      expect(pieces.map((p) => p.blob.size)).toEqual([ciphertextSize(0)]);
    });

    it('refuses a locked session, and ends the job when cancelled', async () => {
      const s = await session();
      const enc = await client.encryptFilePieces(s, uuid(), new Blob([pattern(40 * C)]), 40 * C);
      const reader = enc.ciphertext.getReader();
      await reader.read();
      calls.length = 0;
      await reader.cancel();
      expect(calls).toEqual(['endSealed']);
      await expect(enc.done).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await client.closeSession(s);
      await expect(client.encryptFilePieces(s, uuid(), new Blob([]), 0)).rejects.toMatchObject({
        code: 'LOCKED',
      });
    });
  });
});
