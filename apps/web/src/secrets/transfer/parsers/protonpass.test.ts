// What real Proton Pass exports hold beyond the main sample (issue 32): TOTP fields whose value is
// in data.totpUri, timestamps, identities' extra details and sections, and nulls.
import { describe, expect, it } from 'vitest';
import { parseProtonPassJson } from './protonpass.ts';

const item = (type: string, name: string, content: unknown, extraFields: unknown = []) => ({
  itemId: name,
  state: 1,
  data: { metadata: { name, note: null, itemUuid: name }, extraFields, type, content },
});
const file = (...items: unknown[]) => ({
  version: '1.30.0',
  encrypted: false,
  vaults: { s1: { name: 'Personal', items } },
});
const field = (fieldName: string, type: string, data: unknown) => ({ fieldName, type, data });
const SECOND = 'otpauth://totp/Two?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('Proton Pass, nothing dropped', () => {
  it("keeps a login's second TOTP (data.totpUri) and a timestamp field", () => {
    const r = parseProtonPassJson(
      file(
        item(
          'login',
          'Mail',
          {
            itemEmail: '',
            itemUsername: 'ana',
            password: 'p',
            urls: [],
            totpUri: 'otpauth://totp/One?secret=JBSWY3DPEHPK3PXP',
            passkeys: [],
          },
          [
            field('Backup TOTP', 'totp', { totpUri: SECOND }),
            field('Since', 'timestamp', { timestamp: 1700000000 }),
          ],
        ),
        item('login', 'Only extra', { itemUsername: 'bo', password: 'q', urls: [] }, [
          field('2FA', 'totp', { totpUri: SECOND }),
        ]),
      ),
    );
    expect(r.items[0]).toMatchObject({
      totp: 'otpauth://totp/One?secret=JBSWY3DPEHPK3PXP',
      customFields: [
        { name: 'Backup TOTP', value: SECOND, hidden: true },
        { name: 'Since', value: '2023-11-14', hidden: false },
      ],
    });
    expect(r.items[1]).toMatchObject({ totp: SECOND, customFields: [] });
  });

  it("keeps an identity's extra details and sections as custom fields", () => {
    const r = parseProtonPassJson(
      file(
        item('identity', 'Me', {
          fullName: 'Ana Lima',
          firstName: 'Ana',
          birthdate: '1990-01-02',
          xHandle: '',
          extraPersonalDetails: [field('Nickname', 'text', { content: 'Nana' })],
          extraAddressDetails: [field('Building', 'text', { content: 'B' })],
          extraContactDetails: [field('Signal', 'hidden', { content: '+351 900' })],
          extraWorkDetails: [field('Badge', 'text', { content: '42' })],
          extraSections: [
            {
              sectionName: 'Travel',
              sectionFields: [field('Frequent flyer', 'text', { content: 'FF1' })],
            },
            {
              sectionName: 'Health',
              sectionFields: [field('Blood type', 'hidden', { content: 'O+' })],
            },
          ],
        }),
      ),
    );
    expect(r.items[0]).toMatchObject({ identity: { firstName: 'Ana' } });
    expect(r.items[0]!.customFields).toEqual([
      { name: 'fullName', value: 'Ana Lima', hidden: false },
      { name: 'birthdate', value: '1990-01-02', hidden: false },
      { name: 'Nickname', value: 'Nana', hidden: false },
      { name: 'Building', value: 'B', hidden: false },
      { name: 'Signal', value: '+351 900', hidden: true },
      { name: 'Badge', value: '42', hidden: false },
      { name: 'Travel: Frequent flyer', value: 'FF1', hidden: false },
      { name: 'Health: Blood type', value: 'O+', hidden: true },
    ]);
  });

  it('keeps the sections of custom items and reads nulls as nothing', () => {
    const r = parseProtonPassJson(
      file(
        item('custom', 'Server', {
          sections: [
            { sectionName: 'SSH', sectionFields: [field('Port', 'text', { content: '22' })] },
          ],
        }),
        item('note', 'Empty', null, null),
      ),
    );
    expect(r.items[0]!.customFields).toEqual([{ name: 'SSH: Port', value: '22', hidden: false }]);
    expect(r.items[1]).toMatchObject({ type: 'note', notes: '', customFields: [] });
    expect(r.skipped).toEqual([]);
    const pinned = parseProtonPassJson(file({ ...item('note', 'P', {}), pinned: true }));
    expect(pinned.skipped).toEqual([
      { entry: 'entry 1 ("P")', reason: 'The pinned mark is not imported' },
    ]);
  });
});
