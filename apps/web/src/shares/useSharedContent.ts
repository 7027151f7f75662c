// The state of a share link's page once the link is read (ShareScreen.tsx, issue 29): the password
// form, then opening the content (counted by the server as one open) and decrypting it, a text or
// a secret to show, a file to save or preview; a large file streams straight to disk. Kept apart
// from the markup (Shared.tsx) since it is the page's state and its calls to the server.
import { useState, type FormEvent } from 'react';
import {
  asItemId,
  CryptoError,
  type FileMeta,
  type SecretItem,
  type SessionId,
} from '@sealvault/crypto';
import { publicShareApi, userMessage, type ShareInfo } from '@sealvault/protocol';
import { cryptoClient } from '../crypto/client.ts';
import { BLOB_DOWNLOAD_LIMIT, blobOfPieces, saveBlob } from '../files/transfer/download.ts';
import { openContent, shareTexts, type Link, type Unlocked } from './openShare.ts';
import { saveSharedFile, sharedFileStream, type SharedFile } from './sharedFile.ts';

export function useSharedContent(link: Link, info: ShareInfo, unlocked: Unlocked | null) {
  const [inner, setInner] = useState<SessionId | null>(unlocked?.inner ?? null);
  const [meta, setMeta] = useState<FileMeta | null>(unlocked?.meta ?? null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [content, setContent] = useState<SecretItem | null>(null);
  const [saved, setSaved] = useState(false);
  // A file's bytes once decrypted: previewed and saved from here (one open for both).
  const [fileBlob, setFileBlob] = useState<Blob | null>(null);
  const crypto = cryptoClient();

  const submitPassword = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const got = await openContent(link, info, password).catch(() => null);
    setBusy(false);
    if (!got) return setError(shareTexts.wrongPassword);
    setInner(got.inner);
    setMeta(got.meta);
  };

  const save = (blob: Blob) => {
    if (!meta) return;
    saveBlob(blob, meta.name);
    setSaved(true);
  };

  const file = (): SharedFile => ({
    link,
    inner: inner!,
    wrappedKey: info.wrapped_key ?? '',
    name: meta!.name,
    size: meta!.size,
  });

  /** A large file straight to disk (sharedFile.ts); false where this browser cannot. */
  const streamToDisk = async (): Promise<boolean> => {
    try {
      const how = await saveSharedFile(file(), shareTexts.failed);
      if (how === 'saved') setSaved(true);
      return how !== 'unavailable';
    } catch (err) {
      setError(
        err instanceof CryptoError && err.code === 'DECRYPT_FAILED'
          ? shareTexts.tampered
          : userMessage(err, shareTexts.failed),
      );
      return true;
    }
  };

  const open = async (andSave = true) => {
    if (!inner || !meta) return;
    setBusy(true);
    setError(null);
    try {
      if (info.kind === 'file' && andSave && meta.size >= BLOB_DOWNLOAD_LIMIT) {
        if (await streamToDisk()) return;
      }
      const opened = await publicShareApi.open(link.id, link.token);
      if ('payload' in opened) {
        const item = await crypto
          .decryptItem(inner, asItemId(link.uuid), 1, opened.payload)
          .catch(() => null);
        if (!item) setError(shareTexts.tampered);
        else setContent(item);
      } else {
        const plain = await sharedFileStream(file(), opened.download);
        // Saved only once every chunk decrypted: a changed or cut file saves nothing.
        const blob = await blobOfPieces(plain, meta.mime || 'application/octet-stream').catch(
          () => null,
        );
        if (!blob) setError(shareTexts.tampered);
        else {
          setFileBlob(blob);
          if (andSave) save(blob);
        }
      }
    } catch (err) {
      setError(userMessage(err, shareTexts.failed));
    } finally {
      setBusy(false);
    }
  };

  return {
    inner,
    meta,
    password,
    setPassword,
    error,
    busy,
    content,
    saved,
    fileBlob,
    submitPassword,
    save,
    open,
  };
}
