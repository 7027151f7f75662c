// Our server as a storage provider, in Chromium against the real server (started by
// contract.setup.ts, reached through the test page's origin): the provider contract.
import { inject } from 'vitest';
import { ciphertextLength } from '@sealvault/protocol';
import { contentHashOfDigests } from '@sealvault/crypto';
import { providerContract } from '../contract.testkit.ts';
import { createServerProvider } from './tus.ts';

const { cookie, vaults } = inject('serverContract');
for (const c of cookie.split('; ')) document.cookie = `${c}; path=/`;

const hex = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
const base64 = (n: number) =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))));

let next = 0;
providerContract('server (tus + Range)', () => {
  const vaultId = vaults[next++];
  if (!vaultId) throw new Error('the setup made too few vaults');
  return Promise.resolve({
    provider: createServerProvider({ contentHash: contentHashOfDigests }),
    vaultId,
    blobId: () => crypto.randomUUID(),
    // The server takes only lengths a vf1 ciphertext can have.
    size: (n) => ciphertextLength(n),
    // Opaque to the server: the file record's encrypted metadata, name look-up and wrapped key.
    putOptions: () => ({
      record: { encMeta: base64(140), lookup: hex(32), wrappedKey: base64(60), keyRevision: '0' },
    }),
  });
});
