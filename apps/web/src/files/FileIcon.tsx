// The icon of a file by its type (docs/product.md §2: list rows and grid tiles; fileKinds.ts).
import {
  File,
  FileAudio,
  FileCode,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileType,
  FileTypeCorner,
  FileVideo,
  Folder,
  Presentation,
} from 'lucide-react';
import { iconKind, type IconKind } from './fileKinds.ts';

const icons = {
  folder: Folder,
  image: FileImage,
  pdf: FileType,
  video: FileVideo,
  audio: FileAudio,
  text: FileText,
  code: FileCode,
  document: FileTypeCorner,
  spreadsheet: FileSpreadsheet,
  presentation: Presentation,
  file: File,
} as const satisfies Record<IconKind, unknown>;

// At least 3:1 against the list's light and dark backgrounds (WCAG 1.4.11, graphics).
const colours = {
  folder: 'text-indigo-600 dark:text-indigo-400',
  image: 'text-emerald-600 dark:text-emerald-400',
  pdf: 'text-red-600 dark:text-red-400',
  video: 'text-violet-600 dark:text-violet-400',
  audio: 'text-amber-600 dark:text-amber-400',
  text: 'text-sky-600 dark:text-sky-400',
  code: 'text-teal-600 dark:text-teal-400',
  document: 'text-blue-700 dark:text-blue-400',
  spreadsheet: 'text-green-700 dark:text-green-400',
  presentation: 'text-orange-600 dark:text-orange-400',
  file: 'text-slate-500 dark:text-slate-400',
} as const satisfies Record<IconKind, string>;

export function FileIcon({
  mime,
  name,
  className = 'size-5',
}: {
  mime: string;
  name: string;
  className?: string;
}) {
  const kind = iconKind(mime, name);
  const Icon = icons[kind];
  return <Icon aria-hidden="true" className={`${className} shrink-0 ${colours[kind]}`} />;
}
