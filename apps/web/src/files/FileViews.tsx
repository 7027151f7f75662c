// The list and grid views, virtualised against the window scroll so 10,000 files stay smooth.
// The grid has 2 to 6 columns depending on its width (docs/product.md §2).
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { FileRow, FileTile, type FileActions } from './FileItems.tsx';
import type { FileEntry } from './model.ts';
import { useTranslation } from '../i18n/i18n.ts';

/** Columns of the grid for a width in pixels: 2 up to 6. */
export function gridColumns(width: number): number {
  if (width < 480) return 2;
  if (width < 680) return 3;
  if (width < 880) return 4;
  if (width < 1080) return 5;
  return 6;
}

function useStartAndWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [width, setWidth] = useState(1024);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
      setWidth(el.clientWidth);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, scrollMargin, width };
}

function Virtual({
  rows,
  rowHeight,
  label,
  role,
  render,
  containerRef,
  scrollMargin,
}: {
  rows: number;
  rowHeight: number;
  label: string;
  role: 'list' | 'grid';
  render: (index: number) => ReactNode;
  containerRef: React.RefObject<HTMLDivElement | null>;
  scrollMargin: number;
}) {
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => rowHeight,
    overscan: 8,
    scrollMargin,
  });
  return (
    <div
      ref={containerRef}
      role={role === 'list' ? 'list' : 'grid'}
      aria-label={label}
      aria-rowcount={role === 'grid' ? rows : undefined}
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          role={role === 'list' ? 'listitem' : 'row'}
          aria-rowindex={role === 'grid' ? row.index + 1 : undefined}
          className="absolute inset-x-0"
          style={{
            height: rowHeight,
            transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
          }}
        >
          {render(row.index)}
        </div>
      ))}
    </div>
  );
}

export function FileList({
  files,
  selected,
  renamingId,
  onRenamed,
  actions,
}: {
  files: readonly FileEntry[];
  selected: ReadonlySet<string>;
  renamingId: string | null;
  onRenamed: (file: FileEntry, name: string | null) => void;
  actions: FileActions;
}) {
  const { t } = useTranslation();
  const { ref, scrollMargin } = useStartAndWidth();
  return (
    <div className="mt-4 overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <Virtual
        rows={files.length}
        rowHeight={56}
        label={t('Files')}
        role="list"
        containerRef={ref}
        scrollMargin={scrollMargin}
        render={(i) => {
          const f = files[i]!;
          return (
            <FileRow
              file={f}
              selected={selected.has(f.id)}
              renaming={renamingId === f.id}
              onRenamed={(name) => onRenamed(f, name)}
              actions={actions}
            />
          );
        }}
      />
    </div>
  );
}

export function FileGrid({
  files,
  selected,
  actions,
}: {
  files: readonly FileEntry[];
  selected: ReadonlySet<string>;
  actions: FileActions;
}) {
  const { t } = useTranslation();
  const { ref, scrollMargin, width } = useStartAndWidth();
  const cols = gridColumns(width);
  return (
    <Virtual
      rows={Math.ceil(files.length / cols)}
      rowHeight={160}
      label={t('Files')}
      role="grid"
      containerRef={ref}
      scrollMargin={scrollMargin}
      render={(r) => (
        <div
          className="grid gap-4"
          style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}
        >
          {files.slice(r * cols, r * cols + cols).map((f) => (
            <div role="gridcell" key={f.id}>
              <FileTile file={f} selected={selected.has(f.id)} actions={actions} />
            </div>
          ))}
        </div>
      )}
    />
  );
}
