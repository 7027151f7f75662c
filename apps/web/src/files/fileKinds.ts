// What kind of file a file is, for its preview and its icon (docs/product.md §4 "Previewer", §2
// list rows and grid tiles): by its MIME type, and by its name where the type says nothing useful.
// Browsers type files by the system's tables, which disagree: a `.csv` is `application/vnd.ms-excel`
// where Excel is installed, a `.ts` is `video/mp2t` (MPEG transport stream) on macOS and in `mime`'s
// table (model.ts `mimeOf`), a `.rs` is `application/rls-services+xml`, and many code files come
// untyped. So a few extensions decide before the type does; see `previewKind`.
import { FOLDER_MIME } from '@sealvault/crypto';

export type PreviewKind =
  'image' | 'svg' | 'pdf' | 'video' | 'audio' | 'text' | 'markdown' | 'csv' | 'office' | 'none';

export type IconKind =
  | 'folder'
  | 'image'
  | 'pdf'
  | 'video'
  | 'audio'
  | 'text'
  | 'code'
  | 'document'
  | 'spreadsheet'
  | 'presentation'
  | 'file';

const set = (words: string) => new Set(words.split(' '));

/** Plain text that is not code. */
const TEXT_EXTS = set('txt log text');
/** Source code and configuration, shown as plain text in a monospace block. */
const CODE_EXTS = set(
  'js mjs cjs jsx ts mts cts tsx py go rs java c h cc cpp cxx hpp hh cs rb php sh bash zsh fish ' +
    'sql css scss sass less json jsonc yaml yml toml ini cfg conf properties xml kt kts swift lua ' +
    'pl pm r dart vue svelte gradle env gitignore editorconfig',
);
/** Code files known by their whole name (lower case). */
const CODE_NAMES = set('dockerfile containerfile makefile gnumakefile .env');
const MARKDOWN_EXTS = set('md markdown mdown mkd');
const CSV_EXTS = set('csv tsv');
const MARKDOWN_MIMES = set('text/markdown text/x-markdown');
const CSV_MIMES = set('text/csv text/x-csv application/csv text/tab-separated-values');

type Office = 'document' | 'spreadsheet' | 'presentation';
const OFFICE_EXTS: Record<string, Office> = {
  doc: 'document',
  docx: 'document',
  odt: 'document',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  ods: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
};
const OFFICE_MIMES: Record<string, Office> = {
  'application/msword': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.oasis.opendocument.text': 'document',
  'application/vnd.ms-excel': 'spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'spreadsheet',
  'application/vnd.oasis.opendocument.spreadsheet': 'spreadsheet',
  'application/vnd.ms-powerpoint': 'presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'presentation',
  'application/vnd.oasis.opendocument.presentation': 'presentation',
};

/** Media by extension, used only when the type is missing or `application/octet-stream`. */
const MEDIA_EXTS: Record<string, 'image' | 'video' | 'audio'> = {
  ...Object.fromEntries(
    [...set('png jpg jpeg gif webp avif bmp ico')].map((e) => [e, 'image' as const]),
  ),
  ...Object.fromEntries([...set('mp4 m4v webm mov ogv')].map((e) => [e, 'video' as const])),
  ...Object.fromEntries(
    [...set('mp3 m4a aac ogg oga opus wav flac weba')].map((e) => [e, 'audio' as const]),
  ),
};

/** The lower-case extension without its dot ("" for none; a dotfile's is its name: "env"). */
function extOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function isCodeName(name: string, ext: string): boolean {
  const lower = name.toLowerCase();
  return CODE_EXTS.has(ext) || CODE_NAMES.has(lower) || lower.startsWith('.env.');
}

/**
 * How a file is previewed. SVG is its own kind (shown only through <img>, where scripts never
 * run); HTML and anything unknown get no preview at all, so nothing executes in the app's origin.
 * Markdown is rendered without its raw HTML (MarkdownView.tsx), CSV as a table (CsvView.tsx), code
 * as plain text; Office files get no preview, only their download (docs/product.md "Previewer").
 */
export function previewKind(mime: string, name: string): PreviewKind {
  const m = mime.toLowerCase().split(';')[0]!.trim();
  const ext = extOf(name);
  if (m === 'image/svg+xml' || ext === 'svg') return 'svg';
  if (m === 'text/html' || m === 'application/xhtml+xml' || /^x?html?$/.test(ext)) return 'none';
  if (m === 'application/pdf' || ext === 'pdf') return 'pdf';
  // The name first: these types are often wrong for them (see the header).
  if (MARKDOWN_EXTS.has(ext)) return 'markdown';
  if (CSV_EXTS.has(ext)) return 'csv';
  if (ext in OFFICE_EXTS || m in OFFICE_MIMES) return 'office';
  const media = m.split('/')[0];
  const isMedia = media === 'image' || media === 'video' || media === 'audio';
  // A video type on a `.ts` is the transport stream's (video/mp2t, Windows' video/vnd.dlna.mpeg-tts).
  const tsVideo = media === 'video' && /^[mc]?ts$/.test(ext);
  if (isCodeName(name, ext) && (!isMedia || tsVideo)) return 'text';
  if (MARKDOWN_MIMES.has(m)) return 'markdown';
  if (CSV_MIMES.has(m)) return 'csv';
  if (isMedia) return media;
  if (m.startsWith('text/') || m === 'application/json' || TEXT_EXTS.has(ext)) return 'text';
  if ((m === '' || m === 'application/octet-stream') && ext in MEDIA_EXTS) return MEDIA_EXTS[ext]!;
  return 'none';
}

/** The icon family of a file in the list and grid; the type sort groups by it too (listing.ts). */
export function iconKind(mime: string, name: string): IconKind {
  if (mime === FOLDER_MIME) return 'folder';
  const kind = previewKind(mime, name);
  switch (kind) {
    case 'svg':
      return 'image';
    case 'none':
      return 'file';
    case 'markdown':
      return 'text';
    case 'csv':
      return 'spreadsheet';
    case 'office':
      return OFFICE_EXTS[extOf(name)] ?? OFFICE_MIMES[mime.toLowerCase().split(';')[0]!.trim()]!;
    case 'text':
      return isCodeName(name, extOf(name)) ? 'code' : 'text';
    default:
      return kind;
  }
}

/**
 * Whether decrypted bytes are not text: a NUL byte in the first 8,000 bytes, git's own test. A file
 * taken for text by its name (a `.ts` that is really a video) then gets no preview, not garbage.
 */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 8000).includes(0);
}
