// Moving files and folders by drag and drop inside the file browser. A drag carries the ids of what
// it moves under a type of its own, so the page's drop zone for files from the desktop (which
// looks for 'Files') ignores it, and a folder row or a step of the folder path takes it. The
// "Move to" dialog does the same from the keyboard.
import type { DragEvent } from 'react';

export const DRAG_TYPE = 'application/x-sealvault-entries';

/** Props that make an element draggable, carrying the ids `ids()` gives when the drag starts. */
export function dragSource(ids: () => string[]) {
  return {
    draggable: true,
    onDragStart: (e: DragEvent) => {
      e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(ids()));
      e.dataTransfer.effectAllowed = 'move';
    },
  };
}

/** The ids a drop carries, or null when it is not a move from this page. */
function droppedIds(e: DragEvent): string[] | null {
  try {
    const ids = JSON.parse(e.dataTransfer.getData(DRAG_TYPE) || 'null') as unknown;
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : null;
  } catch {
    return null;
  }
}

/**
 * Props for a drop target: it lights up (`onOver(true)`) while a move is dragged over it and calls
 * `onDrop` with the ids, except a folder's own id dropped onto itself (`self`).
 */
export function dropTarget(
  onDrop: (ids: string[]) => void,
  onOver: (over: boolean) => void,
  self?: string,
) {
  const isMove = (e: DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE);
  return {
    onDragOver: (e: DragEvent) => {
      if (!isMove(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      onOver(true);
    },
    onDragLeave: () => onOver(false),
    onDrop: (e: DragEvent) => {
      if (!isMove(e)) return;
      e.preventDefault();
      e.stopPropagation();
      onOver(false);
      const ids = droppedIds(e)?.filter((id) => id !== self);
      if (ids && ids.length > 0) onDrop(ids);
    },
  };
}
