import { describe, expect, it } from 'vitest';
import { FAST_KDF, localClient, pattern, readAll, streamOf } from './testkit.ts';

describe('smoke', () => {
  it('round trips', async () => {
    const { client } = localClient();
    const vaultId = crypto.randomUUID();
    const { session, key } = await client.createVault(vaultId, 'pw', FAST_KDF);
    const s2 = await client.unlockVault(vaultId, key, 'pw');
    await expect(client.unlockVault(vaultId, key, 'nope')).rejects.toThrow('Invalid password');
    const fileId = crypto.randomUUID();
    const data = pattern(600_000);
    const enc = await client.encryptFileStream(session, fileId, streamOf(data));
    const ct = await readAll(enc.ciphertext);
    const done = await enc.done;
    console.log(done, ct.length);
    const pt = await readAll(client.decryptFileStream(s2, fileId, enc.wrappedKey, streamOf(ct)));
    expect(pt).toEqual(data);
  });
});
