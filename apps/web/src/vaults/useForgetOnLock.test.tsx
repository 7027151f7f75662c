// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import type { SessionId } from '@sealvault/crypto';
import { VaultSessionsProvider } from './sessionContext.tsx';
import { useForgetOnLock } from './useForgetOnLock.ts';
import { createVaultSessions } from './vaultSessions.ts';

vi.mock('../crypto/vaultKeys.ts', () => ({ vaultKeys: { lock: vi.fn() } }));
afterEach(cleanup);

function Probe() {
  useForgetOnLock();
  return null;
}

it('drops what was decrypted from a vault when it locks, and nothing of the others', () => {
  const qc = new QueryClient();
  const sessions = createVaultSessions({ unlock: vi.fn(), lock: vi.fn() });
  sessions.start('a', 'ha' as SessionId);
  sessions.start('b', 'hb' as SessionId);
  for (const id of ['a', 'b']) {
    qc.setQueryData(['secrets', id], { secrets: [{ title: `secret of ${id}` }] });
    qc.setQueryData(['files', id], { files: [] });
  }
  render(
    <QueryClientProvider client={qc}>
      <VaultSessionsProvider sessions={sessions}>
        <Probe />
      </VaultSessionsProvider>
    </QueryClientProvider>,
  );
  act(() => sessions.end('a', 'idle'));
  expect(qc.getQueryData(['secrets', 'a'])).toBeUndefined();
  expect(qc.getQueryData(['files', 'a'])).toBeUndefined();
  expect(qc.getQueryData(['secrets', 'b'])).toEqual({ secrets: [{ title: 'secret of b' }] });
});
