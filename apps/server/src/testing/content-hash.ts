// The content hash ([Note: content hash] in packages/protocol/src/files.ts) written out on its
// own, for the server's tests (testing/files.ts) and the load bench (bench/load/ops.ts), so that
// neither checks the server against itself (the server's is files/content-hash.ts). Not in
// packages/protocol, which imports only zod (eslint.config.js) and has no synchronous SHA-256 the
// web app could share; not in testing/files.ts, whose fetch bodies the bench's type check
// (tsconfig.tools.json, DOM lib) does not accept. node:crypto only.
import { createHash } from 'node:crypto';
import { CONTENT_HASH_BLOCK_BYTES } from '@sealvault/protocol';

/** The content hash of bytes held in memory, lowercase hex (no blocks for an empty input). */
export function contentHash(data: Uint8Array): string {
  const outer = createHash('sha256');
  for (let at = 0; at < data.length; at += CONTENT_HASH_BLOCK_BYTES) {
    outer.update(
      createHash('sha256')
        .update(data.subarray(at, at + CONTENT_HASH_BLOCK_BYTES))
        .digest(),
    );
  }
  return outer.digest('hex');
}
