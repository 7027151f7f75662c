import { FOLDER_MIME } from '@sealvault/crypto';
import { describe, expect, it } from 'vitest';
import { iconKind, looksBinary, previewKind } from './fileKinds.ts';

describe('preview kinds', () => {
  it('plays audio by its type, and by its extension when the browser gives none', () => {
    const audio = [
      ['tune.mp3', 'audio/mpeg'],
      ['voice.m4a', 'audio/mp4'],
      ['song.ogg', 'audio/ogg'],
      ['tone.wav', 'audio/wav'],
      ['take.flac', 'audio/flac'],
    ];
    for (const [name, mime] of audio) {
      expect(previewKind(mime!, name!), `${name} as ${mime}`).toBe('audio');
      expect(previewKind('', name!), `${name} untyped`).toBe('audio');
      expect(previewKind('application/octet-stream', name!), `${name} as octet-stream`).toBe(
        'audio',
      );
      expect(iconKind('', name!)).toBe('audio');
    }
    expect(previewKind('audio/x-wav', 'recording')).toBe('audio');
    expect(previewKind('', 'clip.webm')).toBe('video');
    expect(previewKind('', 'photo.JPG')).toBe('image');
  });

  it('renders Markdown by its extension or type', () => {
    expect(previewKind('text/markdown', 'README.md')).toBe('markdown');
    expect(previewKind('', 'notes.markdown')).toBe('markdown');
    expect(previewKind('text/plain', 'notes.MD')).toBe('markdown');
    expect(previewKind('text/x-markdown; charset=utf-8', 'notes')).toBe('markdown');
    expect(iconKind('text/markdown', 'README.md')).toBe('text');
  });

  it('shows CSV and TSV as tables, even typed as Excel, as Windows does', () => {
    expect(previewKind('text/csv', 'data.csv')).toBe('csv');
    expect(previewKind('application/vnd.ms-excel', 'export.csv')).toBe('csv');
    expect(previewKind('', 'table.tsv')).toBe('csv');
    expect(previewKind('text/tab-separated-values', 'x')).toBe('csv');
    expect(iconKind('text/csv', 'data.csv')).toBe('spreadsheet');
  });

  it('shows code and configuration as text, whatever type the browser or mime guessed', () => {
    for (const name of ['app.js', 'main.py', 'lib.go', 'x.java', 'x.c', 'x.h', 'x.cpp', 'x.cs']) {
      expect(previewKind('', name), name).toBe('text');
      expect(previewKind('application/octet-stream', name), name).toBe('text');
      expect(iconKind('', name), name).toBe('code');
    }
    for (const name of ['x.rb', 'x.php', 'run.sh', 'q.sql', 'a.css', 'a.scss', 'x.json', 'x.yml']) {
      expect(previewKind('', name), name).toBe('text');
    }
    for (const name of ['x.toml', 'x.ini', 'x.xml', 'x.kt', 'x.swift', 'x.lua', 'x.pl', 'x.r']) {
      expect(previewKind('', name), name).toBe('text');
    }
    for (const name of ['x.dart', 'App.vue', 'App.svelte', 'x.tsx', 'x.jsx', 'Dockerfile']) {
      expect(previewKind('', name), name).toBe('text');
    }
    for (const name of ['Makefile', '.env', '.env.local', 'settings.yaml']) {
      expect(previewKind('', name), name).toBe('text');
    }
    // What browsers and mime's table call some of them.
    expect(previewKind('video/mp2t', 'index.ts')).toBe('text');
    expect(previewKind('video/vnd.dlna.mpeg-tts', 'index.ts')).toBe('text');
    expect(previewKind('application/rls-services+xml', 'main.rs')).toBe('text');
    expect(previewKind('application/x-shellscript', 'build.sh')).toBe('text');
    expect(previewKind('application/sql', 'schema.sql')).toBe('text');
    expect(previewKind('text/javascript', 'app.js')).toBe('text');
    expect(iconKind('video/mp2t', 'index.ts')).toBe('code');
    expect(iconKind('text/plain', 'notes.txt')).toBe('text');
    // A typed picture or tune with a code-like name stays what its type says.
    expect(previewKind('image/png', 'logo.env')).toBe('image');
  });

  it('never previews HTML, even by its name, nor renders it as code', () => {
    expect(previewKind('text/html', 'a.html')).toBe('none');
    expect(previewKind('', 'page.htm')).toBe('none');
    expect(previewKind('application/octet-stream', 'page.HTML')).toBe('none');
    expect(previewKind('application/xhtml+xml', 'page.xhtml')).toBe('none');
    expect(previewKind('text/html', 'readme.md')).toBe('none');
    expect(iconKind('text/html', 'x.html')).toBe('file');
  });

  it('offers Office files for download with an icon of their own, by type or extension', () => {
    const office = [
      ['letter.doc', 'application/msword', 'document'],
      ['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['letter.odt', 'application/vnd.oasis.opendocument.text', 'document'],
      ['sheet.xls', 'application/vnd.ms-excel', 'spreadsheet'],
      ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['sheet.ods', 'application/vnd.oasis.opendocument.spreadsheet', 'spreadsheet'],
      ['deck.ppt', 'application/vnd.ms-powerpoint', 'presentation'],
      ['deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
      ['deck.odp', 'application/vnd.oasis.opendocument.presentation', 'presentation'],
    ];
    const family = { letter: 'document', sheet: 'spreadsheet', deck: 'presentation' } as const;
    for (const [name, mime] of office) {
      const icon = family[name!.split('.')[0] as keyof typeof family];
      expect(previewKind(mime!, name!), name).toBe('office');
      expect(previewKind('', name!), name).toBe('office');
      expect(previewKind(mime!, 'untitled'), mime).toBe('office');
      expect(iconKind(mime!, name!), name).toBe(icon);
      expect(iconKind('', name!), name).toBe(icon);
      expect(iconKind(mime!, 'untitled'), mime).toBe(icon);
    }
  });

  it('keeps the other kinds and the folder icon', () => {
    expect(previewKind('image/svg+xml', 'x.svg')).toBe('svg');
    expect(previewKind('', 'x.svg')).toBe('svg');
    expect(previewKind('application/pdf', 'x')).toBe('pdf');
    expect(previewKind('video/mp4', 'x.mp4')).toBe('video');
    expect(previewKind('text/plain; charset=utf-8', 'x')).toBe('text');
    expect(previewKind('application/octet-stream', 'a.bin')).toBe('none');
    expect(previewKind('application/zip', 'a.zip')).toBe('none');
    expect(iconKind(FOLDER_MIME, 'Taxes')).toBe('folder');
    expect(iconKind('image/svg+xml', 'x.svg')).toBe('image');
    expect(iconKind('application/zip', 'a.zip')).toBe('file');
  });
});

describe('binary content', () => {
  it('takes a NUL byte near the start as binary, as git does', () => {
    expect(looksBinary(new TextEncoder().encode('const a = 1;\nnaïve ✓\n'))).toBe(false);
    expect(looksBinary(new Uint8Array([0x47, 0x40, 0x11, 0x00, 0x42]))).toBe(true);
    const late = new Uint8Array(9000).fill(0x41);
    late[8500] = 0;
    expect(looksBinary(late)).toBe(false);
  });
});
