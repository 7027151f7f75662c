import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { lazyRoutesReady } from './lazyRoutesReady.ts';

const Screen = () => null;

function table() {
  const shellLazy = vi.fn(() => Promise.resolve({ Component: Screen }));
  const authLazy = vi.fn(() => Promise.resolve({ Component: Screen }));
  const dashboardLazy = vi.fn(() => Promise.resolve({ Component: Screen }));
  const routes: RouteObject[] = [
    {
      children: [
        { index: true, Component: Screen },
        { path: 'auth', lazy: authLazy },
        { lazy: shellLazy, children: [{ path: 'dashboard', lazy: dashboardLazy }] },
        { path: '*', Component: Screen },
      ],
    },
  ];
  return { routes, shellLazy, authLazy, dashboardLazy };
}

describe('lazyRoutesReady', () => {
  it('loads only the lazy routes the path matches', async () => {
    const { routes, authLazy, shellLazy, dashboardLazy } = table();
    await lazyRoutesReady(routes, '/auth');
    expect(authLazy).toHaveBeenCalledTimes(1);
    expect(shellLazy).not.toHaveBeenCalled();
    expect(dashboardLazy).not.toHaveBeenCalled();
  });

  it('waits for a lazy layout route and its lazy child', async () => {
    const { routes, shellLazy, dashboardLazy } = table();
    let loaded = false;
    shellLazy.mockImplementation(async () => {
      await new Promise((r) => setTimeout(r, 5));
      loaded = true;
      return { Component: Screen };
    });
    await lazyRoutesReady(routes, '/dashboard');
    expect(loaded).toBe(true);
    expect(dashboardLazy).toHaveBeenCalledTimes(1);
  });

  it('does not wait at a path that matches no lazy route', () => {
    const { routes, authLazy } = table();
    expect(lazyRoutesReady(routes, '/')).toBeUndefined();
    expect(lazyRoutesReady(routes, '/nowhere')).toBeUndefined();
    expect(authLazy).not.toHaveBeenCalled();
  });

  it('resolves when a chunk fails to load, so the app still renders', async () => {
    const { routes, authLazy } = table();
    authLazy.mockRejectedValue(new Error('chunk failed'));
    await expect(lazyRoutesReady(routes, '/auth')).resolves.toBeUndefined();
  });
});
