// What an unlock opens of a secrets vault early (earlyOpen.ts, [Note: early secrets opening]):
// only for the session it was opened under, once, forgotten when the unlock fails, and sent to
// the Worker a batch at a time.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import type { Vault } from '@sealvault/protocol';

// The Worker: an item's "ciphertext" is its title, and "bad" does not open.
const decryptItems = vi.fn(
  (_s: SessionId, items: { id: string; revision: number; data: string }[]) =>
    Promise.resolve(items.map((i) => (i.data === 'bad' ? null : { title: i.data }))),
);
vi.mock('../crypto/client.ts', () => ({ cryptoClient: () => ({ decryptItems }) }));

const { dropOpenedSecrets, noteEarlyRecords, openItems, openSecretsEarly, takeOpenedSecrets } =
  await import('./earlyOpen.ts');

const VAULT = '00000000-0000-4000-8000-000000000001';
const A = 'a'.repeat(32) as SessionId;
const B = 'b'.repeat(32) as SessionId;
const vault = { id: VAULT } as Vault;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rec = (n: number, data = `Item ${n}`) => ({ id: id(n), revision: 1, data });

beforeEach(() => {
  decryptItems.mockClear();
  dropOpenedSecrets(VAULT);
});

describe('the early opening of secrets', () => {
  it('decrypts the records read before the key under the new session, leaving out what does not open', async () => {
    noteEarlyRecords(VAULT, Promise.resolve([rec(1), rec(2, 'bad')]));
    openSecretsEarly(VAULT, A, vault);
    const opening = takeOpenedSecrets(VAULT, A)!;
    expect(opening.vault).toBe(vault);
    const items = await opening.items;
    expect(decryptItems).toHaveBeenCalledWith(A, [
      { id: id(1), revision: 1, data: 'Item 1' },
      { id: id(2), revision: 1, data: 'bad' },
    ]);
    expect([...items.keys()]).toEqual([id(1)]);
    expect(items.get(id(1))).toMatchObject({ revision: 1, data: 'Item 1' });
    expect(items.get(id(1))!.fields.title).toBe('Item 1');
  });

  it('is taken once, and never by another session', () => {
    noteEarlyRecords(VAULT, Promise.resolve([rec(1)]));
    openSecretsEarly(VAULT, A, vault);
    expect(takeOpenedSecrets(VAULT, B)).toBeUndefined();
    expect(takeOpenedSecrets(VAULT, A)).toBeUndefined(); // gone with the other session's attempt
    noteEarlyRecords(VAULT, Promise.resolve([rec(1)]));
    openSecretsEarly(VAULT, A, vault);
    expect(takeOpenedSecrets(VAULT, A)).toBeDefined();
    expect(takeOpenedSecrets(VAULT, A)).toBeUndefined();
  });

  it('keeps nothing of an unlock that failed', () => {
    noteEarlyRecords(VAULT, Promise.resolve([rec(1)]));
    openSecretsEarly(VAULT, A, vault);
    dropOpenedSecrets(VAULT);
    expect(takeOpenedSecrets(VAULT, A)).toBeUndefined();
  });

  it('hands on the vault with nothing to reuse when no records were read, or their read failed', async () => {
    openSecretsEarly(VAULT, A, undefined);
    const none = takeOpenedSecrets(VAULT, A)!;
    expect(none.vault).toBeUndefined();
    expect((await none.items).size).toBe(0);
    noteEarlyRecords(VAULT, Promise.reject(new Error('offline')));
    openSecretsEarly(VAULT, A, vault);
    await expect(takeOpenedSecrets(VAULT, A)!.items).rejects.toThrow('offline');
    expect(decryptItems).not.toHaveBeenCalled();
  });

  it('sends a batch only once the one before is answered, so other Worker calls get in between', async () => {
    const records = Array.from({ length: 2500 }, (_, i) => rec(i));
    let answer: () => void = () => undefined;
    decryptItems.mockImplementationOnce((_s, items) => {
      return new Promise((resolve) => {
        answer = () => resolve(items.map((i) => ({ title: i.data })));
      });
    });
    const opened = openItems(A, records);
    await Promise.resolve();
    expect(decryptItems).toHaveBeenCalledTimes(1);
    expect(decryptItems.mock.calls[0]![1]).toHaveLength(1000);
    answer();
    const items = await opened;
    expect(decryptItems.mock.calls.map((c) => c[1].length)).toEqual([1000, 1000, 500]);
    expect(items.size).toBe(2500);
  });
});
