import type { FieldValues, Resolver, ResolverOptions } from 'react-hook-form';
import { expect, it, vi } from 'vitest';
import { lazyResolver } from './lazyResolver.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<FieldValues>;
const answer = { values: { a: 1 }, errors: {} };

it('loads the resolver once, on first use, and answers with it', async () => {
  const inner = vi.fn<Resolver>(() => Promise.resolve(answer));
  const load = vi.fn(() => Promise.resolve(inner));
  const resolver = lazyResolver(load);
  expect(load).not.toHaveBeenCalled();
  expect(await resolver({ a: 1 }, undefined, options)).toBe(answer);
  expect(await resolver({ a: 2 }, undefined, options)).toBe(answer);
  expect(load).toHaveBeenCalledOnce();
  expect(inner).toHaveBeenLastCalledWith({ a: 2 }, undefined, options);
});

it('preloads, and tries again after a failed load', async () => {
  const inner = vi.fn<Resolver>(() => Promise.resolve(answer));
  const load = vi
    .fn<() => Promise<Resolver>>()
    .mockRejectedValueOnce(new Error('offline'))
    .mockResolvedValue(inner);
  const resolver = lazyResolver(load);
  resolver.preload();
  expect(load).toHaveBeenCalledOnce();
  await vi.waitFor(() => expect(resolver({}, undefined, options)).resolves.toBe(answer));
  expect(load).toHaveBeenCalledTimes(2);
});
