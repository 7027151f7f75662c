// @vitest-environment happy-dom
// [Note: schemas beside the first read]: the limits' (as the vault list's) request goes out
// before its schemas have loaded, and its answer is still checked by them.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

let openSchemas: () => void = () => undefined;
vi.mock('./vaultRequests.ts', async (importOriginal) => {
  await new Promise<void>((resolve) => (openSchemas = resolve));
  return importOriginal();
});

const limits = {
  plan_id: 'pro',
  plan_name: 'Pro',
  max_vaults: 10,
  max_file_size_mb: 1000,
  max_storage_mb: 10_000,
  max_share_links: 50,
  max_share_mb: 1000,
};
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  vi.resetModules();
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function renderLimits() {
  const { useLimits } = await import('./useVaults.ts');
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>{children}</QueryClientProvider>
  );
  return renderHook(() => useLimits(), { wrapper });
}

it('sends the request before the schemas have loaded, then gives the checked limits', async () => {
  fetchMock.mockResolvedValue(Response.json(limits));
  const { result } = await renderLimits();
  await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/limits');
  expect(result.current.isPending).toBe(true);
  openSchemas();
  await waitFor(() => expect(result.current.data).toEqual(limits));
  expect(result.current.limits.plan_name).toBe('Pro');
});

it('refuses an answer its schema does not accept', async () => {
  fetchMock.mockResolvedValue(Response.json({ ...limits, max_vaults: 'many' }));
  const { result } = await renderLimits();
  openSchemas();
  await waitFor(() => expect(result.current.isError).toBe(true));
  expect(result.current.data).toBeUndefined();
  expect(result.current.limits.plan_name).toBe('Free'); // the spec's fallback
});
