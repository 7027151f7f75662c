// Thumbnails (issue 28 item 6; docs/vault-format.md "Thumbnails"). Made in this browser from the
// plaintext, at upload or the first time an older file is previewed: images are scaled with
// createImageBitmap, a PDF's first page is drawn by pdf.js, a video gives one frame. The result
// (WebP, at most 320 px on its longer side) is uploaded as a file of its own, encrypted under its
// own file key and stored with the vault's provider like any file; its metadata names the file it
// shows (`thumbnailOf`), so the list shows it on that file and never lists it. HEIC and camera
// RAW images get none (the browser cannot decode them).
import { useQuery } from '@tanstack/react-query';
import { previewKind, type FileEntry } from './model.ts';
import { loadPdfJs } from './PdfView.tsx';
import { decryptToBlob } from './transfer/download.ts';
import { uploadFile } from './transfer/upload.ts';

/** The longer side of a thumbnail, in pixels (the grid shows them at up to 160 px, 2x). */
export const THUMB_PX = 320;
/** Files above this are not read whole to make a thumbnail when first previewed. */
export const THUMB_SOURCE_LIMIT = 64 * 1024 * 1024;
export const THUMB_NAME = 'thumbnail.webp';

/** Whether a file of this type gets a thumbnail. */
export function hasThumbnailKind(mime: string, name: string): boolean {
  const kind = previewKind(mime, name);
  if (kind === 'image') return !/^image\/(heic|heif|x-[a-z-]*raw|x-canon|x-nikon)/i.test(mime);
  return kind === 'pdf' || kind === 'video';
}

/** The size of a thumbnail of a w x h picture: at most THUMB_PX on its longer side, never larger. */
export function thumbSize(w: number, h: number): { width: number; height: number } {
  const scale = Math.min(1, THUMB_PX / Math.max(w, h, 1));
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

async function encode(source: CanvasImageSource, w: number, h: number): Promise<Blob> {
  const { width, height } = thumbSize(w, h);
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');
  ctx.drawImage(source, 0, 0, width, height);
  return canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
}

async function ofImage(blob: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(blob);
  try {
    return await encode(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

async function ofPdf(blob: Blob): Promise<Blob> {
  const lib = await loadPdfJs();
  const task = lib.getDocument({ data: new Uint8Array(await blob.arrayBuffer()) });
  try {
    const page = await (await task.promise).getPage(1);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: THUMB_PX / Math.max(base.width, base.height) });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    await page.render({ canvas, viewport }).promise;
    return await encode(canvas, canvas.width, canvas.height);
  } finally {
    await task.destroy();
  }
}

async function ofVideo(blob: Blob): Promise<Blob> {
  const url = URL.createObjectURL(blob);
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  try {
    video.src = url;
    await new Promise<void>((resolve, reject) => {
      video.onloadedmetadata = () => resolve();
      video.onerror = () => reject(new Error('The video cannot be read'));
    });
    // One frame a little way in (the first is often black).
    video.currentTime = Math.min(1, (video.duration || 0) / 2);
    await new Promise<void>((resolve, reject) => {
      video.onseeked = () => resolve();
      video.onerror = () => reject(new Error('The video cannot be read'));
    });
    return await encode(video, video.videoWidth, video.videoHeight);
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** The thumbnail of a picture, PDF or video, or null for anything the browser cannot draw. */
export async function makeThumbnail(
  source: Blob,
  mime: string,
  name: string,
): Promise<Blob | null> {
  if (!hasThumbnailKind(mime, name)) return null;
  const kind = previewKind(mime, name);
  try {
    if (kind === 'pdf') return await ofPdf(source);
    if (kind === 'video') return await ofVideo(source);
    return await ofImage(source);
  } catch {
    return null; // a picture the browser cannot decode: no thumbnail, and nothing else changes
  }
}

/**
 * Makes and stores the thumbnail of the file `fileId` from its plaintext. Resolves true when one
 * was stored, false when there is none to make; a failure is not the upload's failure.
 */
export async function addThumbnail(
  vaultId: string,
  fileId: string,
  source: Blob,
  mime: string,
  name: string,
): Promise<boolean> {
  const thumb = await makeThumbnail(source, mime, name);
  if (!thumb) return false;
  const file = new File([thumb], THUMB_NAME, { type: 'image/webp', lastModified: Date.now() });
  await uploadFile(vaultId, file, () => undefined, new AbortController().signal, undefined, {
    name: THUMB_NAME,
    mime: 'image/webp',
    thumbnailOf: fileId,
  });
  return true;
}

/** A file that has no thumbnail yet and could have one, made from what the previewer decrypts. */
export function wantsThumbnail(f: FileEntry): boolean {
  return (
    !f.isFolder && !f.thumb && f.size <= THUMB_SOURCE_LIMIT && hasThumbnailKind(f.mime, f.name)
  );
}

const making = new Set<string>();

/**
 * Makes the thumbnail of an existing file from its decrypted bytes, once per page at a time;
 * resolves true when one was stored. Never rejects: a file without a thumbnail shows its icon.
 */
export async function thumbnailLater(vaultId: string, f: FileEntry): Promise<boolean> {
  if (making.has(f.id)) return false;
  making.add(f.id);
  try {
    const plain = await decryptToBlob(vaultId, f);
    return await addThumbnail(vaultId, f.id, plain, f.mime, f.name);
  } catch {
    return false;
  } finally {
    making.delete(f.id);
  }
}

/** The query key of a decrypted thumbnail; forgotten when the vault locks (useForgetOnLock). */
export const thumbnailKey = (vaultId: string, id: string) => ['thumbnail', vaultId, id] as const;

/** The decrypted thumbnail of a file, kept while its vault is unlocked. */
export function useThumbnail(vaultId: string, thumb: FileEntry | undefined) {
  return useQuery({
    queryKey: thumbnailKey(vaultId, thumb?.id ?? ''),
    queryFn: () => decryptToBlob(vaultId, thumb!, 'image/webp'),
    enabled: thumb !== undefined,
    staleTime: Infinity,
  });
}
