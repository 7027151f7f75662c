// File-size padding (vault-format.md "File-size padding"; issue 18): a file's plaintext is
// followed by zeros up to paddedSize(size) before it is encrypted, so the stored size says little
// about which file it is; the true size travels in the encrypted metadata, and the reader stops
// there. Files stored before padding have nothing after their size, so trimming changes nothing.

/** Passes `size` bytes through, then appends zeros up to `padded`. */
export function padStream(size: number, padded: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      controller.enqueue(chunk);
    },
    flush(controller) {
      if (seen !== size) throw new Error('The file changed while it was being read.');
      // Zeros in pieces of at most 1 MiB: the padding is at most 12% of the file.
      for (let left = padded - size; left > 0; left -= 1 << 20)
        controller.enqueue(new Uint8Array(Math.min(left, 1 << 20)));
    },
  });
}

/** Passes the first `size` bytes through and drops the rest (the padding). */
export function trimStream(size: number): TransformStream<Uint8Array, Uint8Array> {
  let left = size;
  return new TransformStream({
    transform(chunk, controller) {
      if (left <= 0) return;
      if (chunk.byteLength <= left) controller.enqueue(chunk);
      else controller.enqueue(chunk.subarray(0, left));
      left -= chunk.byteLength;
    },
  });
}
