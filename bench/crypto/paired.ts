// The paired stream-vs-raw measurement of the crypto bench (README.md, "Paired rounds"): the
// stream API and its raw WebCrypto baselines back to back in one context. Web APIs only.
import {
  CHUNK_BYTES,
  type CryptoClient,
  type SessionId,
  asFileId,
} from '../../packages/crypto/src/index.ts';
import { collect, drain, memorySource, rate, rawAesGcm, source } from './workload.ts';

/** One round of the paired measurement: MB/s of each, measured back to back. */
export interface PairedRound {
  /** Raw AES-GCM, one 256 KiB call at a time on a fixed buffer (the rawFigures baseline). */
  rawEncrypt: number;
  /** Raw AES-GCM, 4 calls in flight, each input first read from the same byte source as the stream. */
  rawEncryptRead: number;
  streamEncrypt: number;
  /** The app's upload (issue 31, ADR 0014): a Blob read, padded and sealed in the Worker. */
  fileEncrypt?: number;
  /** The upload before issue 31: the same Blob read on the page and fed to the Worker. */
  blobStreamEncrypt?: number;
  rawDecrypt: number;
  rawDecryptRead: number;
  streamDecrypt: number;
  /** Only where the caller passes `viaMessages`: raw calls in a Worker, chunks sent by messages. */
  rawEncryptMessages?: number;
}

export interface PairedFigures {
  /** Bytes per measurement. */
  bytes: number;
  rounds: PairedRound[];
  /** Medians over the rounds of stream / baseline, in percent. */
  percent: {
    encryptOfRaw: number;
    encryptOfRawRead: number;
    fileEncryptOfRaw?: number;
    decryptOfRaw: number;
    decryptOfRawRead: number;
    encryptOfRawMessages?: number;
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Raw AES-GCM, `inFlight` 256 KiB calls at a time, each input first read with a BYOB reader into a
 * recycled buffer from a byte stream (the bench's plaintext source, or sealed chunks in memory), as
 * the vf1 stream reads its input: the read a stream must pay, and none of its framing, generators,
 * jobs or messages.
 */
export async function rawAesGcmRead(total: number, inFlight: number, decrypt: boolean) {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  const params = { name: 'AES-GCM', iv: new Uint8Array(12), additionalData: new Uint8Array(72) };
  // Decryption reads one sealed chunk over and over (valid under the fixed nonce), from memory.
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(params, key, new Uint8Array(CHUNK_BYTES).fill(7)),
  );
  const calls = Math.ceil(total / CHUNK_BYTES);
  const stream = decrypt
    ? memorySource(Array.from({ length: calls }, () => sealed))
    : source(calls * CHUNK_BYTES);
  const size = decrypt ? sealed.length : CHUNK_BYTES;
  const seconds = await readWindow(stream, size, calls, inFlight, async (input) => {
    await (decrypt
      ? crypto.subtle.decrypt(params, key, input)
      : crypto.subtle.encrypt(params, key, input));
    return input;
  });
  return rate(total, seconds * 1000);
}

/**
 * Reads `calls` inputs of exactly `size` bytes from a byte stream with a BYOB reader into recycled
 * buffers, handing each to `call` with at most `inFlight` outstanding; `call` gives the buffer
 * back when it is free again. Returns the seconds taken.
 */
export async function readWindow(
  stream: ReadableStream<Uint8Array>,
  size: number,
  calls: number,
  inFlight: number,
  call: (input: ArrayBuffer, index: number) => Promise<ArrayBuffer>,
): Promise<number> {
  const reader = stream.getReader({ mode: 'byob' });
  const free: ArrayBuffer[] = [];
  const queue: Promise<ArrayBuffer>[] = [];
  const start = performance.now();
  for (let i = 0; i < calls; i++) {
    let buffer = free.pop() ?? new ArrayBuffer(size);
    let have = 0;
    while (have < size) {
      const r = await reader.read(new Uint8Array(buffer, have, size - have));
      if (!r.value || r.done) throw new Error('the source ended early');
      buffer = r.value.buffer;
      have += r.value.byteLength;
    }
    queue.push(call(buffer, i));
    if (queue.length >= inFlight) free.push(await queue.shift()!);
  }
  await Promise.all(queue);
  const seconds = (performance.now() - start) / 1000;
  await reader.cancel();
  return seconds;
}

/**
 * Stream against raw WebCrypto, paired: each round measures raw AES-GCM and the stream API
 * (encryption alone; decryption of a ciphertext held in memory) over the same
 * bytes, back to back in the same context, in an order that rotates from round to round. Raw
 * figures drift by up to 2x over minutes on this shared machine, so the ratio within each round
 * is the figure, and the median over the rounds is reported. Two baselines: raw calls on a fixed
 * buffer, and raw calls fed by the same byte source as the stream (the read every stream pays).
 * `viaMessages`, when given, is a third (the app's layout: raw calls in a Worker, fed by messages).
 * `total` is at most 256 MiB (the ciphertext is held in memory).
 */
export async function pairedFigures(
  client: CryptoClient,
  session: SessionId,
  total: number,
  rounds: number,
  viaMessages?: (total: number) => Promise<number>,
  /** Whether to measure `fileEncrypt` (not where the page's Blob store is out of reach). */
  withFile = true,
): Promise<PairedFigures> {
  const fileId = asFileId(crypto.randomUUID());
  const sealed = await client.encryptFileStream(session, fileId, source(total));
  const parts = await collect(sealed.ciphertext);
  // The same bytes as a Blob (the browser's blob store holds them, as it does a picked File).
  const blob = withFile
    ? new Blob((await collect(source(total))) as Uint8Array<ArrayBuffer>[])
    : null;
  const measures: [keyof PairedRound, () => Promise<number>][] = [
    ['rawEncrypt', () => rawAesGcm(total, 1, false)],
    ['rawEncryptRead', () => rawAesGcmRead(total, 4, false)],
    [
      'streamEncrypt',
      async () => {
        const t = performance.now();
        const enc = await client.encryptFileStream(
          session,
          asFileId(crypto.randomUUID()),
          source(total),
        );
        if ((await drain(enc.ciphertext)) < total) throw new Error('encryption lost bytes');
        return rate(total, performance.now() - t);
      },
    ],
    ['rawDecrypt', () => rawAesGcm(total, 1, true)],
    ['rawDecryptRead', () => rawAesGcmRead(total, 4, true)],
    [
      'streamDecrypt',
      async () => {
        const t = performance.now();
        const n = await drain(
          client.decryptFileStream(session, fileId, sealed.wrappedKey, memorySource(parts)),
        );
        if (n !== total) throw new Error(`decrypted ${n} bytes, expected ${total}`);
        return rate(total, performance.now() - t);
      },
    ],
  ];
  if (viaMessages) measures.push(['rawEncryptMessages', () => viaMessages(total)]);
  if (blob)
    measures.push(
      [
        'blobStreamEncrypt',
        async () => {
          const t = performance.now();
          const id = asFileId(crypto.randomUUID());
          const enc = await client.encryptFileStream(session, id, blob.stream());
          if ((await drain(enc.ciphertext)) < total) throw new Error('encryption lost bytes');
          return rate(total, performance.now() - t);
        },
      ],
      [
        'fileEncrypt',
        async () => {
          const t = performance.now();
          const enc = await client.encryptFile(session, asFileId(crypto.randomUUID()), blob, total);
          if ((await drain(enc.ciphertext)) < total) throw new Error('encryption lost bytes');
          return rate(total, performance.now() - t);
        },
      ],
    );
  const out: PairedRound[] = [];
  for (let i = 0; i < rounds; i++) {
    const r = {} as PairedRound;
    for (let j = 0; j < measures.length; j++) {
      const [name, measure] = measures[(i + j) % measures.length]!;
      r[name] = await measure();
    }
    out.push(r);
  }
  const pct = (a: keyof PairedRound, b: keyof PairedRound) =>
    Math.round(median(out.map((r) => r[a]! / r[b]!)) * 1000) / 10;
  return {
    bytes: total,
    rounds: out,
    percent: {
      encryptOfRaw: pct('streamEncrypt', 'rawEncrypt'),
      encryptOfRawRead: pct('streamEncrypt', 'rawEncryptRead'),
      decryptOfRaw: pct('streamDecrypt', 'rawDecrypt'),
      decryptOfRawRead: pct('streamDecrypt', 'rawDecryptRead'),
      ...(viaMessages ? { encryptOfRawMessages: pct('streamEncrypt', 'rawEncryptMessages') } : {}),
      ...(blob ? { fileEncryptOfRaw: pct('fileEncrypt', 'rawEncrypt') } : {}),
    },
  };
}
