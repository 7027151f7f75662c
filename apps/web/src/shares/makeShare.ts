// Making a share link (issue 29, ADR 0012; vault-format.md "Share links"): the link's keys are
// drawn in the crypto Worker; the note goes under K_outer, the content under K_inner; a file is
// decrypted from its vault's provider and encrypted again for the link as it streams, and its copy
// is sent to our server whatever the vault's provider. The server gets ciphertext, the access
// token's hash and a password link's Argon2id salt and parameters; the link's secret only
// encrypted under the vault's key (so its owner can copy the link again).
import {
  asFileId,
  asItemId,
  ciphertextSize,
  fromBase64Url,
  shareUuid,
  type SecretItem,
} from '@sealvault/crypto';
import {
  paddedSize,
  SHARE_PART_BYTES,
  sharesApi,
  type CreateShareRequest,
  type ShareExpiry,
  type ShareLink,
} from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { sessionOf } from '../vaults/sessionContext.tsx';
import type { FileEntry } from '../files/model.ts';
import { decryptedStream } from '../files/transfer/download.ts';
import { padStream } from '../files/transfer/padding.ts';
import { kdfToWire, shareUrl } from './links.ts';

export interface ShareOptions {
  expires: ShareExpiry;
  /** null: no limit. */
  maxOpens: number | null;
  /** '' for none. */
  password: string;
  /** '' for none. */
  note: string;
}

/** What a link's owner keeps of it in the vault (a secret item of revision 0). */
interface OwnerCopy {
  title: string;
  secret: string;
}

export type ShareWhat =
  | { kind: 'text'; text: string }
  | { kind: 'secret'; vaultId: string; item: SecretItem }
  | { kind: 'file'; vaultId: string; file: FileEntry };

export interface MadeShare {
  url: string;
  share: ShareLink;
}

/** The MIME type a secret link's metadata names (the recipient shows a card). */
export const SECRET_MIME = 'application/vnd.sealvault.secret+json';

/**
 * Makes the link for `what`. `onProgress` gets the fraction of a file's copy sent (0..1);
 * `signal` stops it (a half-made link is revoked).
 */
export async function makeShare(
  what: ShareWhat,
  options: ShareOptions,
  onProgress: (sent: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<MadeShare> {
  const crypto = cryptoClient();
  const made = await crypto.createShare(options.password ? { password: options.password } : {});
  const itemId = asItemId(made.uuid);
  const fileId = asFileId(made.uuid);
  let created: ShareLink | null = null;
  try {
    const enc_note = options.note.trim()
      ? await crypto.encryptItem(made.outer, itemId, 0, { title: options.note.trim() })
      : null;
    const vaultId = what.kind === 'text' ? null : what.vaultId;
    const owner_key = vaultId
      ? await crypto.encryptItem(sessionOf(vaultId), itemId, 0, {
          title: 'Share link',
          secret: made.secret,
        } satisfies OwnerCopy)
      : null;
    const common = {
      id: made.id,
      access_hash: made.accessHash,
      kdf: made.kdf ? kdfToWire(made.kdf) : null,
      enc_note,
      owner_key,
      expires_in: options.expires,
      max_opens: options.maxOpens,
    };
    const now = Date.now();
    let request: CreateShareRequest;
    let content: { stream: ReadableStream<Uint8Array>; length: number } | null = null;
    if (what.kind === 'file') {
      const f = what.file;
      const enc_meta = await crypto.encryptMeta(made.inner, fileId, null, {
        name: f.name,
        mime: f.mime,
        size: f.size,
        modified: f.modified,
      });
      // Padded as an upload is (Padmé), so the link's size says as little as the vault's.
      const padded = paddedSize(f.size);
      const plain = (await decryptedStream(what.vaultId, f, signal)).pipeThrough(
        padStream(f.size, padded),
      );
      const enc = await crypto.encryptFileStream(made.inner, fileId, plain);
      const length = ciphertextSize(padded);
      content = { stream: enc.ciphertext, length };
      request = {
        ...common,
        kind: 'file',
        vault_id: what.vaultId,
        enc_meta,
        wrapped_key: enc.wrappedKey,
        ciphertext_size: length,
      };
    } else {
      const item: SecretItem = what.kind === 'text' ? { title: '', notes: what.text } : what.item;
      const name = what.kind === 'text' ? 'Text' : what.item.title || 'Secret';
      const [enc_meta, payload] = await Promise.all([
        crypto.encryptMeta(made.inner, fileId, null, {
          name,
          mime: what.kind === 'text' ? 'text/plain' : SECRET_MIME,
          size: what.kind === 'text' ? new TextEncoder().encode(what.text).length : 0,
          modified: now,
        }),
        crypto.encryptItem(made.inner, itemId, 1, item),
      ]);
      request =
        what.kind === 'text'
          ? { ...common, kind: 'text', enc_meta, payload }
          : { ...common, kind: 'secret', vault_id: what.vaultId, enc_meta, payload };
    }
    created = (await sharesApi.create(request)).share;
    if (content) await sendInParts(made.id, content.stream, content.length, onProgress, signal);
    onProgress(1);
    return { url: shareUrl(window.location.origin, made.id, made.secret), share: created };
  } catch (err) {
    // A link made but not filled is revoked: nothing is left half made.
    if (created) await sharesApi.revoke(made.id).catch(() => undefined);
    throw err;
  } finally {
    await Promise.all([crypto.closeSession(made.outer), crypto.closeSession(made.inner)]);
  }
}

/**
 * Sends a file link's copy in parts of SHARE_PART_BYTES, in order, each PUT while the next part
 * is read (a browser cannot stream one request body over HTTP/1.1: one PUT would gather the whole
 * copy first). The page holds at most two parts. `onProgress` gets the fraction read and sent.
 */
async function sendInParts(
  id: string,
  stream: ReadableStream<Uint8Array>,
  length: number,
  onProgress: (sent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = stream.getReader();
  let pieces: Blob[] = [];
  let inPart = 0;
  let queued = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const send = async () => {
    const part = new Blob(pieces);
    const start = queued;
    queued += part.size;
    pieces = [];
    inPart = 0;
    await inFlight; // in order: the part before is in first
    inFlight = sharesApi.uploadContentPart(id, part, start, length, signal);
    inFlight.catch(() => undefined); // awaited before the next part, or at the end
  };
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      for (let rest = value; rest.length > 0;) {
        const take = rest.subarray(0, SHARE_PART_BYTES - inPart);
        pieces.push(new Blob([take as Uint8Array<ArrayBuffer>]));
        inPart += take.length;
        rest = rest.subarray(take.length);
        if (inPart === SHARE_PART_BYTES) await send();
      }
      onProgress(Math.min(0.99, (queued + inPart) / length));
    }
    if (inPart > 0) await send();
    await inFlight;
  } finally {
    reader.releaseLock();
  }
  if (queued !== length) throw new RangeError(`The copy is ${queued} bytes, not ${length}`);
}

/** The link of one of the owner's links again, from its copy kept under the vault's key. */
export async function linkAgain(vaultId: string, share: ShareLink): Promise<string | null> {
  if (!share.owner_key) return null;
  const uuidItem = asItemId(uuidOf(share.id));
  const copy = (await cryptoClient().decryptItem(
    sessionOf(vaultId),
    uuidItem,
    0,
    share.owner_key,
  )) as unknown as Partial<OwnerCopy>;
  return typeof copy.secret === 'string'
    ? shareUrl(window.location.origin, share.id, copy.secret)
    : null;
}

/** The link's id (base64url of 16 bytes) as the UUID its records are encrypted for. */
export const uuidOf = (id: string) => shareUuid(fromBase64Url(id, 16));
