// Drag-and-drop of files or folders from the desktop onto the file browser (docs/product.md §2
// "File browser"): whether something is being dragged over it (for the 'Drop files to upload'
// overlay) and the handlers that count nested enter/leave events and hand the dropped files on.
// Kept apart from FileBrowser.tsx since it is state and event plumbing only, with no markup.
import { useRef, useState, type DragEvent } from 'react';
import { toast } from 'sonner';
import { messages } from '@sealvault/protocol';
import { pickedFromDrop, type Picked } from './folderUpload.ts';
import { useTranslation } from '../i18n/i18n.ts';

const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes('Files');

/** `onFiles` receives what was dropped; spread `handlers` on the element that takes drops. */
export function useFileDrop(onFiles: (files: (File | Picked)[]) => void) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  // Entering a child fires dragenter before the parent's dragleave: count the depth, so the overlay
  // goes only when the pointer leaves the whole area.
  const dragDepth = useRef(0);

  const handlers = {
    onDragEnter: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current += 1;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => hasFiles(e) && e.preventDefault(),
    onDragLeave: () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      // Folders from the desktop come with their tree (walked after the event).
      pickedFromDrop(e.dataTransfer)
        .then(onFiles)
        .catch(() => toast.error(t(messages.files.uploadFailed)));
    },
  };
  return { dragging, handlers };
}
