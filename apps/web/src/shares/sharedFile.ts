// A shared file on the recipient's page (ShareScreen.tsx): its plaintext decrypted as it streams
// from our server under the link's inner key, and a large file saved to disk as it decrypts.
import { asFileId, type SessionId } from '@sealvault/crypto';
import { publicShareApi } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { i18n } from '../i18n/i18n.ts';
import { saveThroughFrame, savePicker, saveWithPicker } from '../files/transfer/download.ts';
import { openStreamDownload } from '../files/transfer/mediaStream.ts';
import { trimStream } from '../files/transfer/padding.ts';

export interface SharedFile {
  /** The link's id and access token, and its id as the UUID its records are encrypted for. */
  link: { id: string; token: string; uuid: string };
  inner: SessionId;
  wrappedKey: string;
  name: string;
  /** The plaintext's true size (the copy is padded). */
  size: number;
}

/** The file's plaintext for a download token, decrypted as it streams in. */
export async function sharedFileStream(f: SharedFile, download: string) {
  const res = await publicShareApi.content(f.link.id, download);
  return cryptoClient()
    .decryptFileStream(f.inner, asFileId(f.link.uuid), f.wrappedKey, res.body!)
    .pipeThrough(trimStream(f.size));
}

/** Counts an open and answers the file's plaintext stream. */
async function openedStream(f: SharedFile, failed: string) {
  const opened = await publicShareApi.open(f.link.id, f.link.token);
  if (!('download' in opened)) throw new Error(failed);
  return sharedFileStream(f, opened.download);
}

/**
 * Saves the file straight to disk as it decrypts (flat memory at any size): to the file the user
 * picks where the browser has the save dialog, else to the browser's downloads through the
 * Service Worker. The browser discards the partial file if a chunk does not decrypt. Answers
 * 'saved', 'dismissed' (the save dialog closed), or 'unavailable' (neither path here).
 */
export async function saveSharedFile(
  f: SharedFile,
  failed: string,
): Promise<'saved' | 'dismissed' | 'unavailable'> {
  const open = () => openedStream(f, failed);
  const picker = savePicker();
  if (picker) return (await saveWithPicker(picker, f.name, open)) ? 'saved' : 'dismissed';
  const media = await openStreamDownload(f.name, f.size, open);
  if (!media) return 'unavailable';
  await saveThroughFrame(media, i18n.t('Download {{name}}', { name: f.name }));
  return 'saved';
}
