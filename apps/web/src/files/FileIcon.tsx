// The icon of a file by its type (docs/product.md §2: list rows and grid tiles).
import { File, FileAudio, FileImage, FileText, FileVideo, FileType, Folder } from 'lucide-react';
import { iconKind } from './model.ts';

const icons = {
  folder: Folder,
  image: FileImage,
  pdf: FileType,
  video: FileVideo,
  audio: FileAudio,
  text: FileText,
  file: File,
} as const;

const colours = {
  folder: 'text-indigo-600 dark:text-indigo-400',
  image: 'text-emerald-600 dark:text-emerald-400',
  pdf: 'text-red-600 dark:text-red-400',
  video: 'text-violet-600 dark:text-violet-400',
  audio: 'text-amber-600 dark:text-amber-400',
  text: 'text-sky-600 dark:text-sky-400',
  file: 'text-slate-500 dark:text-slate-400',
} as const;

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
