// Drive's own checksum of a file's bytes is MD5 (md5Checksum on the file resource, "Files"
// reference). A put computes the MD5 of what it sends on the way (hash-wasm, incrementally: MD5
// is not in WebCrypto) and holds Drive's answer to it (upload.ts): a copy Drive holds differently
// is removed and the put fails, as Dropbox's content_hash and OneDrive's quickXorHash are held.
// MD5 here is an integrity check of ciphertext against accidents, never a security boundary:
// the content hash (SHA-256 blocks) and the AEAD tags are.
import { createMD5 } from 'hash-wasm';

export interface Md5Tap {
  /** The source, unchanged, with every byte counted into the MD5. */
  stream: ReadableStream<Uint8Array>;
  /** The hex MD5 of every byte the stream passed, once it has ended. */
  digest: () => string;
}

export async function md5Tap(source: ReadableStream<Uint8Array>): Promise<Md5Tap> {
  const md5 = await createMD5();
  md5.init();
  let ended = false;
  const stream = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        md5.update(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        ended = true;
      },
    }),
  );
  return {
    stream,
    digest: () => {
      if (!ended) throw new Error('The MD5 is asked before the stream ended');
      return md5.digest('hex');
    },
  };
}
