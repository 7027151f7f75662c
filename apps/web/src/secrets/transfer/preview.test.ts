import { describe, expect, it } from 'vitest';
import { transferFromStored } from '../itemFormat.ts';
import type { TransferItem } from './model.ts';
import { previewImport } from './preview.ts';

const login = (title: string, username: string, url: string): TransferItem => ({
  title,
  notes: '',
  urls: url ? [url] : [],
  customFields: [],
  type: 'login',
  login: { username, password: 'x' },
});

describe('previewImport', () => {
  it('counts per type and finds duplicates in the file and against the vault', () => {
    const items: TransferItem[] = [
      login('GitHub', 'octo', 'https://github.com'),
      login(' github ', 'OCTO', 'https://GitHub.com'),
      login('GitHub', 'other', 'https://github.com'),
      login('Bank', 'me', 'https://bank.example'),
      { title: 'Wi-Fi', notes: 'key', urls: [], customFields: [], type: 'note' },
    ];
    const existing = [
      transferFromStored({
        title: 'Bank',
        username: 'me',
        password: 'old',
        url: 'https://bank.example',
        notes: '',
      }),
      transferFromStored({ title: 'Wi-Fi', username: '', password: '', url: '', notes: 'key' }),
    ];
    const p = previewImport(items, existing);
    expect(p.total).toBe(5);
    expect(p.counts).toEqual({
      login: 4,
      card: 0,
      note: 1,
      identity: 0,
      ssh: 0,
      apikey: 0,
      text: 0,
    });
    expect(p.duplicates).toEqual([
      { index: 1, title: ' github ', of: 'file' },
      { index: 3, title: 'Bank', of: 'existing' },
      { index: 4, title: 'Wi-Fi', of: 'existing' },
    ]);
  });

  it('groups what will not be imported by reason', () => {
    const p = previewImport(
      [],
      [],
      [
        { entry: 'entry 1 ("A")', reason: 'Attachment "a.pdf" is not imported' },
        { entry: 'entry 2 ("B")', reason: 'Attachment "b.png" is not imported' },
        { entry: 'entry 2 ("B")', reason: 'Passkeys are not imported' },
      ],
    );
    expect(p.unmapped).toEqual([
      {
        reason: 'Attachment is not imported',
        entries: ['entry 1 ("A"): a.pdf', 'entry 2 ("B"): b.png'],
      },
      { reason: 'Passkeys are not imported', entries: ['entry 2 ("B")'] },
    ]);
  });
});
