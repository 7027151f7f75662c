import { describe, expect, it } from 'vitest';
import { hasThumbnailKind, thumbSize, THUMB_PX, wantsThumbnail } from './thumbnails.ts';
import type { FileEntry } from './model.ts';

describe('thumbnails', () => {
  it('are made for pictures, PDFs and videos the browser can draw', () => {
    expect(hasThumbnailKind('image/png', 'a.png')).toBe(true);
    expect(hasThumbnailKind('', 'scan.pdf')).toBe(true);
    expect(hasThumbnailKind('video/mp4', 'clip.mp4')).toBe(true);
    expect(hasThumbnailKind('image/heic', 'IMG_0001.heic')).toBe(false);
    expect(hasThumbnailKind('text/plain', 'notes.txt')).toBe(false);
    expect(hasThumbnailKind('inode/directory', 'Taxes')).toBe(false);
  });
  it('fit 320 px on the longer side, keep the shape, and never grow a small picture', () => {
    expect(thumbSize(4000, 3000)).toEqual({ width: THUMB_PX, height: 240 });
    expect(thumbSize(1000, 2000)).toEqual({ width: 160, height: THUMB_PX });
    expect(thumbSize(40, 30)).toEqual({ width: 40, height: 30 });
    expect(thumbSize(5000, 1)).toEqual({ width: THUMB_PX, height: 1 });
  });
  it('an older file gets one when previewed, if it has none and is not too large', () => {
    const f = {
      id: 'a',
      name: 'a.png',
      mime: 'image/png',
      size: 1000,
      isFolder: false,
      folder: null,
    } as FileEntry;
    expect(wantsThumbnail(f)).toBe(true);
    expect(wantsThumbnail({ ...f, thumb: { ...f, id: 't' } })).toBe(false);
    expect(wantsThumbnail({ ...f, size: 100 * 1024 * 1024 })).toBe(false);
    expect(wantsThumbnail({ ...f, name: 'a.txt', mime: 'text/plain' })).toBe(false);
  });
});
