import { describe, expect, it } from 'vitest';
import { exportBitwardenCsv } from './export.ts';
import { exportFileName, plainExportNotice } from './exportFile.ts';
import { common, emptyCard, type TransferItem } from './model.ts';

const at = new Date('2026-11-24T10:00:00Z');

describe('export file', () => {
  it('names the file after the vault and the day, marking plain exports', () => {
    expect(exportFileName('Work / Logins', 'encrypted', at)).toBe(
      'sealvault-Work-Logins-2026-11-24.json',
    );
    expect(exportFileName('Work', 'csv', at)).toBe('sealvault-Work-2026-11-24-plain.csv');
    expect(exportFileName('Work', 'json', at)).toBe('sealvault-Work-2026-11-24-plain.json');
    expect(exportFileName('***', 'json', at)).toBe('sealvault-vault-2026-11-24-plain.json');
  });

  it('names what the CSV leaves out, exactly the items exportBitwardenCsv omits', () => {
    const items: TransferItem[] = [
      { ...common('Bank'), type: 'login', login: { username: 'u', password: 'p' } },
      { ...common('Visa'), type: 'card', card: emptyCard() },
      {
        ...common('Server'),
        type: 'ssh',
        ssh: { privateKey: 'k', publicKey: '', fingerprint: '' },
      },
    ];
    const omitted = exportBitwardenCsv(items).omitted.map((i) => i.title);
    expect(omitted.sort()).toEqual(['Server', 'Visa']);
    const notice = plainExportNotice(items);
    expect(notice).toContain('2 items are left out');
    expect(notice).toContain('"Visa"');
    expect(notice).toContain('"Server"');
    expect(plainExportNotice(items.slice(0, 1))).toBeNull();
  });
});
