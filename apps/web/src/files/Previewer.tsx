// The previewer (docs/product.md §2, §4 Previewer): loading, error or content. The file is decrypted in the
// Worker into memory. Nothing from a file ever runs in the app's origin: images and SVG are shown
// only through <img> (scripts in an SVG image never run), text and code as text, Markdown rendered
// without its HTML and CSV as a table (TextPreview.tsx), PDF through pdf.js onto a canvas, video and
// audio in media elements; HTML and unknown types get no preview at all, nor do Office files, which
// would need an online viewer (their download is offered, fileKinds.ts).
// A preview that failed because the vault's cloud account is no longer connected says so, offers
// to connect it right here (CloudConnectionPrompt.tsx), and loads again once it is.
import * as Dialog from '@radix-ui/react-dialog';
import { Download, Loader2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { CloudConnectionPrompt } from './CloudConnectionPrompt.tsx';
import { isNotConnected } from './cloudConnection.ts';
import type { LostConnection } from './useCloudConnection.ts';
import { buttonClass } from '../components/buttonStyles.ts';
import { decryptToBlob } from './transfer/download.ts';
import { openMediaUrl } from './transfer/mediaStream.ts';
import type { FileEntry } from './model.ts';
import { looksBinary, previewKind } from './fileKinds.ts';
import { FileIcon } from './FileIcon.tsx';
import { PdfView } from './PdfView.tsx';
import { TextPreview, type TextFormat } from './TextPreview.tsx';
import { useReturnFocus } from '../components/useReturnFocus.ts';
import { msg, useTranslation } from '../i18n/i18n.ts';

/** Larger files are not previewed in memory; they can be downloaded. */
export const PREVIEW_LIMIT = 512 * 1024 * 1024;
const TEXT_LIMIT = 2 * 1024 * 1024;
/** Under "No preview available" for an Office file (docs/product.md "Previewer"). */
export const OFFICE_NOTE = msg(
  'Office files are not opened in the browser, so they are never sent to an online viewer: download the file to open it in an app on this device.',
);
const LOAD_FAILED = msg('Failed to load file content.');

type Content =
  | { kind: 'loading' }
  | { kind: 'error'; message: string; notConnected?: boolean }
  | { kind: 'none' }
  | { kind: 'url'; as: 'image' | 'svg' | 'video' | 'audio'; url: string }
  | { kind: 'text'; text: string; truncated: boolean; format: TextFormat }
  | { kind: 'pdf'; data: Uint8Array };

const MEDIA_TYPE = { svg: 'image/svg+xml' } as const;

const formatOf = (kind: ReturnType<typeof previewKind>): TextFormat | null =>
  kind === 'text' ? 'plain' : kind === 'markdown' || kind === 'csv' ? kind : null;

/** What a decrypted file shows as (an object URL for pictures and media: the caller revokes it). */
async function contentOf(blob: Blob, kind: ReturnType<typeof previewKind>): Promise<Content> {
  const format = formatOf(kind);
  if (format) {
    // Taken for text by its name or type, but binary (a `.ts` video): no preview.
    if (looksBinary(new Uint8Array(await blob.slice(0, 8000).arrayBuffer()))) {
      return { kind: 'none' };
    }
    const truncated = blob.size > TEXT_LIMIT;
    return { kind: 'text', text: await blob.slice(0, TEXT_LIMIT).text(), truncated, format };
  }
  if (kind === 'pdf') return { kind: 'pdf', data: new Uint8Array(await blob.arrayBuffer()) };
  if (kind === 'image' || kind === 'svg' || kind === 'video' || kind === 'audio') {
    const typed = kind === 'svg' ? new Blob([blob], { type: MEDIA_TYPE.svg }) : blob;
    return { kind: 'url', as: kind, url: URL.createObjectURL(typed) };
  }
  return { kind: 'none' };
}

/** Whether a file of this type and size gets a preview from its decrypted bytes in memory. */
export const previewsInMemory = (mime: string, name: string, size: number) => {
  const kind = previewKind(mime, name);
  return kind !== 'none' && kind !== 'office' && size <= PREVIEW_LIMIT;
};

/**
 * The preview of bytes already decrypted (a share link's file, issue 29), as the previewer shows
 * a vault's file; a video seeks within the bytes in memory.
 */
export function BlobPreview({
  blob,
  name,
  mime,
  onDownload,
}: {
  blob: Blob;
  name: string;
  mime: string;
  onDownload: () => void;
}) {
  const [content, setContent] = useState<Content>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    let url: string | null = null;
    void contentOf(blob, previewKind(mime, name)).then(
      (c) => {
        if (c.kind === 'url') url = c.url;
        if (live) setContent(c);
        else if (url) URL.revokeObjectURL(url);
      },
      () => live && setContent({ kind: 'error', message: LOAD_FAILED }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [blob, mime, name]);
  const { t } = useTranslation();
  return (
    <div
      role="region"
      aria-label={t('Content of {{name}}', { name })}
      tabIndex={0}
      className="overflow-auto"
    >
      <Body content={content} file={{ name, mime }} lost={null} onDownload={onDownload} />
    </div>
  );
}

function useContent(vaultId: string, file: FileEntry | null, attempt: number): Content {
  // The loaded content is kept with the id of its file: another file shows 'loading' at once.
  const [loaded, setLoaded] = useState<{ id: string; content: Content } | null>(null);
  const kind = file ? previewKind(file.mime, file.name) : 'none';
  const media = kind === 'video' || kind === 'audio';
  // Media stream through the Service Worker at any size; the rest is decrypted into memory.
  const previewable =
    file !== null && kind !== 'none' && kind !== 'office' && (media || file.size <= PREVIEW_LIMIT);
  useEffect(() => {
    if (!file || !previewable) return;
    const ctrl = new AbortController();
    let url: string | null = null;
    const set = (content: Content) => !ctrl.signal.aborted && setLoaded({ id: file.id, content });
    let dispose: (() => void) | null = null;
    const type = kind === 'svg' ? MEDIA_TYPE.svg : formatOf(kind) ? 'text/plain' : file.mime;
    const streamed = media ? openMediaUrl(vaultId, file) : Promise.resolve(null);
    streamed
      .then((stream) => {
        if (stream && (kind === 'video' || kind === 'audio')) {
          dispose = stream.dispose;
          if (ctrl.signal.aborted) stream.dispose();
          else set({ kind: 'url', as: kind, url: stream.url });
          return null;
        }
        if (file.size > PREVIEW_LIMIT) {
          set({ kind: 'none' });
          return null;
        }
        return decryptToBlob(vaultId, file, type, ctrl.signal);
      })
      .then(async (blob) => {
        if (!blob) return;
        const content = await contentOf(blob, kind);
        if (content.kind === 'url') url = content.url;
        if (ctrl.signal.aborted) {
          if (url) URL.revokeObjectURL(url);
          return;
        }
        set(content);
      })
      .catch((err: unknown) =>
        set(
          isNotConnected(err)
            ? { kind: 'error', message: err.message, notConnected: true }
            : {
                kind: 'error',
                message:
                  err instanceof Error && /decrypt|load/i.test(err.message)
                    ? LOAD_FAILED
                    : msg('An unexpected error occurred while loading the file.'),
              },
        ),
      );
    return () => {
      ctrl.abort();
      if (url) URL.revokeObjectURL(url);
      dispose?.();
      setLoaded(null);
    };
  }, [vaultId, file, kind, media, previewable, attempt]);
  if (!file || !previewable) return { kind: 'none' };
  return loaded?.id === file.id ? loaded.content : { kind: 'loading' };
}

function Body({
  content,
  file,
  lost,
  onDownload,
}: {
  content: Content;
  file: Pick<FileEntry, 'name' | 'mime'>;
  lost: LostConnection | null;
  onDownload: () => void;
}) {
  const { t } = useTranslation();
  switch (content.kind) {
    case 'loading':
      return (
        <p
          role="status"
          className="flex items-center justify-center gap-2 py-16 text-slate-600 dark:text-slate-400"
        >
          <Loader2 aria-hidden="true" className="size-5 animate-spin" />{' '}
          {t('Decrypting and loading file...')}
        </p>
      );
    case 'error':
      return (
        <>
          <p role="alert" className="py-16 text-center text-red-700 dark:text-red-400">
            {content.notConnected && lost
              ? t('{{provider}} not connected', { provider: lost.name })
              : t(content.message)}
          </p>
          {content.notConnected && lost && <CloudConnectionPrompt connection={lost} />}
        </>
      );
    case 'none':
      return (
        <div className="flex flex-col items-center gap-4 py-16 text-center">
          <FileIcon mime={file.mime} name={file.name} className="size-12" />
          <p className="text-slate-700 dark:text-slate-300">
            {t('No preview available for this file type.')}
          </p>
          {previewKind(file.mime, file.name) === 'office' && (
            <p className="max-w-md text-sm text-slate-600 dark:text-slate-400">{t(OFFICE_NOTE)}</p>
          )}
          <button type="button" onClick={onDownload} className={buttonClass('primary')}>
            <Download aria-hidden="true" className="size-4" /> {t('Download')}
          </button>
        </div>
      );
    case 'text':
      return (
        <TextPreview
          text={content.text}
          truncated={content.truncated}
          format={content.format}
          name={file.name}
        />
      );
    case 'pdf':
      return <PdfView data={content.data} />;
    case 'url':
      if (content.as === 'video')
        return (
          <video src={content.url} controls autoPlay className="mx-auto max-h-[70vh] max-w-full" />
        );
      if (content.as === 'audio')
        return <audio src={content.url} controls autoPlay className="mx-auto w-full" />;
      return (
        <img
          src={content.url}
          alt={file.name}
          className="mx-auto max-h-[70vh] max-w-full object-contain"
        />
      );
  }
}

export function Previewer({
  vaultId,
  file,
  lost = null,
  onClose,
  onDownload,
}: {
  vaultId: string;
  file: FileEntry | null;
  /** The vault's cloud account when it is not connected (useCloudConnection.ts). */
  lost?: LostConnection | null;
  onClose: () => void;
  onDownload: (f: FileEntry) => void;
}) {
  const { t } = useTranslation();
  // Bumped to load the file again: once the account a preview needed is connected again.
  const [attempt, setAttempt] = useState(0);
  const content = useContent(vaultId, file, attempt);
  const waiting = content.kind === 'error' && content.notConnected === true;
  const wasLost = useRef(lost !== null);
  useEffect(() => {
    if (waiting && wasLost.current && !lost) setAttempt((a) => a + 1);
    wasLost.current = lost !== null;
  }, [waiting, lost]);
  const returnFocus = useReturnFocus(file !== null);
  return (
    <Dialog.Root open={file !== null} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/70" />
        <Dialog.Content
          onCloseAutoFocus={returnFocus}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900"
        >
          {file && (
            <>
              <div className="flex items-center gap-3 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
                <Dialog.Title className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900 dark:text-white">
                  {file.name}
                </Dialog.Title>
                <Dialog.Description className="sr-only">
                  {t('Preview of {{name}}', { name: file.name })}
                </Dialog.Description>
                <button
                  type="button"
                  aria-label={t('Download')}
                  onClick={() => onDownload(file)}
                  className={buttonClass('ghost', 'md', '!px-2')}
                >
                  <Download aria-hidden="true" className="size-5" />
                </button>
                <Dialog.Close
                  aria-label={t('Close')}
                  className={buttonClass('ghost', 'md', '!px-2')}
                >
                  <X aria-hidden="true" className="size-5" />
                </Dialog.Close>
              </div>
              {/* Focusable, so a keyboard can scroll a tall page or picture (arrow keys). */}
              <div
                role="region"
                aria-label={t('Content of {{name}}', { name: file.name })}
                tabIndex={0}
                className="overflow-auto p-5 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500"
              >
                <Body
                  content={content}
                  file={file}
                  lost={lost}
                  onDownload={() => onDownload(file)}
                />
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
