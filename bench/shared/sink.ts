// A download's destination for the browser benchmarks: window.showSaveFilePicker stubbed with a
// writable that keeps no bytes, only their count and a position-weighted checksum (`wordSum`,
// summed in a Worker of its own), set on window.__saved when the app closes it. The bench computes the same checksum over its
// input file, so a round trip is checked byte-identical without a disk or a copy in memory.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/**
 * A position-weighted sum of the little-endian 32-bit words (the last one zero-padded): cheap
 * enough to run on every downloaded byte in the page (the same code runs there).
 */
export function wordSum(sum: number, index: number, words: Uint32Array): [number, number] {
  for (let k = 0; k < words.length; k++, index++)
    sum = (sum + Math.imul(words[k]!, 2 * index + 1)) | 0;
  return [sum, index];
}

/**
 * Runs in a Worker of its own: sums the chunks posted to it (copies, transferred), and answers
 * `{ sum }` to 'close'. The checksum is bench work, not the app's: on the page thread it took
 * about 1 s per 512 MiB and slowed the download it checked, where a real file's bytes go to the
 * browser process.
 */
function sumWorker() {
  const scope = self as unknown as {
    onmessage: (e: MessageEvent<Uint8Array | Blob | 'close'>) => void | Promise<void>;
    postMessage: (m: unknown) => void;
    __wordSum: typeof wordSum;
  };
  let sum = 0;
  let index = 0;
  let carry = new Uint8Array(0);
  const add = (b: Uint8Array) => {
    const n = b.length >>> 2;
    const words =
      b.byteOffset % 4 === 0
        ? new Uint32Array(b.buffer, b.byteOffset, n)
        : new Uint32Array(b.slice(0, n * 4).buffer);
    [sum, index] = scope.__wordSum(sum, index, words);
    carry = b.slice(n * 4);
  };
  scope.onmessage = async ({ data }: MessageEvent<Uint8Array | Blob | 'close'>) => {
    if (data instanceof Blob) {
      // A saved file, read here (opfsSinkScript): its chunks are summed like posted ones.
      for await (const chunk of data.stream() as unknown as AsyncIterable<Uint8Array>)
        await scope.onmessage({ data: chunk } as MessageEvent<Uint8Array>);
      await scope.onmessage({ data: 'close' } as MessageEvent<'close'>);
      return;
    }
    if (data === 'close') {
      if (carry.length) {
        const last = new Uint8Array(4);
        last.set(carry);
        [sum, index] = scope.__wordSum(sum, index, new Uint32Array(last.buffer));
      }
      scope.postMessage({ sum });
      return;
    }
    if (carry.length === 0) return add(data);
    const joined = new Uint8Array(carry.length + data.length);
    joined.set(carry);
    joined.set(data, carry.length);
    add(joined);
  };
}

/** Runs in the page: installs the stub (window.__sumWorker must be defined first). */
function installSink() {
  const w = window as unknown as {
    showSaveFilePicker: unknown;
    __saved?: { bytes: number; sum: number };
    __sumWorker: string;
  };
  w.showSaveFilePicker = () =>
    Promise.resolve({
      createWritable: () => {
        const url = URL.createObjectURL(new Blob([w.__sumWorker], { type: 'text/javascript' }));
        const worker = new Worker(url);
        URL.revokeObjectURL(url);
        let bytes = 0;
        // Copies gathered 4 MiB at a time, one message each: a copy and a message per 256 KiB
        // chunk cost the page thread about 0.5 s per 512 MiB.
        const BATCH = 4 * 1024 * 1024;
        let batch = new Uint8Array(BATCH);
        let used = 0;
        const flush = () => {
          if (used === 0) return;
          const full = used === BATCH ? batch : batch.slice(0, used);
          worker.postMessage(full, [full.buffer]);
          batch = new Uint8Array(BATCH);
          used = 0;
        };
        return Promise.resolve(
          new WritableStream<Uint8Array>({
            write(chunk) {
              bytes += chunk.length;
              // Copied: the app may read its next chunk into this buffer once write resolves.
              for (let at = 0; at < chunk.length;) {
                const n = Math.min(chunk.length - at, BATCH - used);
                batch.set(chunk.subarray(at, at + n), used);
                used += n;
                at += n;
                if (used === BATCH) flush();
              }
            },
            close: () =>
              new Promise<void>((resolve) => {
                worker.onmessage = ({ data }: MessageEvent<{ sum: number }>) => {
                  worker.terminate();
                  w.__saved = { bytes, sum: data.sum };
                  resolve();
                };
                flush();
                worker.postMessage('close');
              }),
          }),
        );
      },
    });
}

/**
 * Runs in the page: window.showSaveFilePicker answers a real file handle, a new file of the
 * origin's private file system (OPFS) each time, like the handles of the browser's own save
 * dialog: the app may hand it to its crypto Worker ([Note: downloads written in the Worker]).
 * `__waitWritten(size)` resolves once the latest file holds `size` bytes (a writable's bytes
 * appear when it closes; polled every 10 ms); `__checksum()` answers its count and wordSum,
 * summed in a Worker of its own, and removes it.
 */
function installOpfsSink() {
  const w = window as unknown as {
    showSaveFilePicker: unknown;
    __sumWorker: string;
    __picked: string[];
    __waitWritten: (size: number) => Promise<boolean>;
    __checksum: () => Promise<{ bytes: number; sum: number }>;
  };
  w.__picked = [];
  const latest = async () => {
    const dir = await navigator.storage.getDirectory();
    return { dir, handle: await dir.getFileHandle(w.__picked.at(-1) ?? '') };
  };
  w.showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) => {
    const name = `${w.__picked.length}-${suggestedName}`;
    w.__picked.push(name);
    const dir = await navigator.storage.getDirectory();
    return dir.getFileHandle(name, { create: true });
  };
  w.__waitWritten = async (size) => {
    for (;;) {
      const file = await latest()
        .then(({ handle }) => handle.getFile())
        .catch(() => null); // not picked yet
      if (file && file.size === size) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  w.__checksum = async () => {
    const { dir, handle } = await latest();
    const file = await handle.getFile();
    const url = URL.createObjectURL(new Blob([w.__sumWorker], { type: 'text/javascript' }));
    const worker = new Worker(url);
    URL.revokeObjectURL(url);
    const sum = await new Promise<number>((resolve) => {
      worker.onmessage = ({ data }: MessageEvent<{ sum: number }>) => resolve(data.sum);
      worker.postMessage(file);
    });
    worker.terminate();
    await dir.removeEntry(handle.name);
    return { bytes: file.size, sum };
  };
}

/**
 * The stub as a script for a new document (Playwright's addInitScript or DevTools'
 * Page.addScriptToEvaluateOnNewDocument). tsx (esbuild keepNames) wraps named functions in
 * __name(): the page gets a no-op one.
 */
const workerScript = `self.__name = (f) => f; self.__wordSum = ${wordSum.toString()}; (${sumWorker.toString()})();`;
export const sinkScript = `window.__name = (f) => f; window.__sumWorker = ${JSON.stringify(workerScript)}; (${installSink.toString()})();`;
/** The same with real file handles (installOpfsSink). */
export const opfsSinkScript = `window.__name = (f) => f; window.__sumWorker = ${JSON.stringify(workerScript)}; (${installOpfsSink.toString()})();`;

/** The count and wordSum of the bytes the app wrote to the stub, once it closed it. */
export interface Saved {
  bytes: number;
  sum: number;
}

/**
 * Writes `bytes` of random data in pieces of `piece` bytes, each varied a little (not one
 * repeated block), handing each piece to `onPiece`; answers their wordSum. The file is on disk
 * before anything is measured: the kernel's writeback of fresh input files would otherwise
 * compete for the two cores during the first measurements.
 */
export function writeInputFile(
  file: string,
  bytes: number,
  piece: number,
  onPiece: (bytes: Uint8Array) => void = () => undefined,
): number {
  const fd = fs.openSync(file, 'w');
  const block = randomBytes(piece);
  let sum = 0;
  let index = 0;
  for (let done = 0; done < bytes;) {
    const n = Math.min(piece, bytes - done);
    block[0] = (done >>> 22) & 0xff;
    block[1] = (done >>> 30) & 0xff;
    fs.writeSync(fd, block, 0, n);
    const padded = new Uint8Array(Math.ceil(n / 4) * 4);
    padded.set(block.subarray(0, n));
    [sum, index] = wordSum(sum, index, new Uint32Array(padded.buffer));
    onPiece(block.subarray(0, n));
    done += n;
  }
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return sum;
}
