// @vitest-environment happy-dom
// [Note: landing hero before the app]: the app's first render waits for index.html's hero to be
// reported as painted (its largest-contentful-paint entry), and only where the hero shows.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootHeroPainted, renderFirst } from './bootHeroPaint.ts';

const { transitions } = vi.hoisted(() => ({ transitions: { count: 0 } }));
vi.mock('react', () => ({
  startTransition: (fn: () => void) => {
    transitions.count++;
    fn();
  },
}));

/** A stand-in PerformanceObserver whose callback the test fires, as the browser would. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
  observed: unknown[] = [];
  disconnected = false;
  constructor(readonly callback: () => void) {
    FakeObserver.instances.push(this);
  }
  observe(options: unknown) {
    this.observed.push(options);
  }
  disconnect() {
    this.disconnected = true;
  }
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeObserver.instances = [];
  FakeObserver.supportedEntryTypes = ['paint', 'largest-contentful-paint'];
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  document.documentElement.classList.add('boot-hero');
  transitions.count = 0;
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.documentElement.classList.remove('boot-hero');
});

describe('bootHeroPainted', () => {
  it('waits for the largest-contentful-paint entry when the hero shows', async () => {
    const painted = bootHeroPainted();
    expect(await settled(painted)).toBe(false);
    const [observer] = FakeObserver.instances;
    expect(observer?.observed).toEqual([{ type: 'largest-contentful-paint', buffered: true }]);
    observer?.callback();
    expect(await settled(painted)).toBe(true);
    expect(observer?.disconnected).toBe(true);
  });

  it('gives up waiting after its limit (no entry ever comes)', async () => {
    const painted = bootHeroPainted(500);
    await vi.advanceTimersByTimeAsync(499);
    expect(await settled(painted)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(painted)).toBe(true);
    expect(FakeObserver.instances[0]?.disconnected).toBe(true);
  });

  it('does not wait where the hero is not shown (another path, German)', async () => {
    document.documentElement.classList.remove('boot-hero');
    expect(await settled(bootHeroPainted())).toBe(true);
    expect(FakeObserver.instances).toHaveLength(0);
  });

  it.each(['boot-dashboard', 'boot-auth'])('waits likewise behind %s', async (frame) => {
    document.documentElement.classList.replace('boot-hero', frame);
    const painted = bootHeroPainted();
    expect(await settled(painted)).toBe(false);
    FakeObserver.instances[0]?.callback();
    expect(await settled(painted)).toBe(true);
    document.documentElement.classList.remove(frame);
  });

  it('does not wait in a browser without the entry type, or on a hidden page', async () => {
    FakeObserver.supportedEntryTypes = ['paint'];
    expect(await settled(bootHeroPainted())).toBe(true);
    FakeObserver.supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    expect(await settled(bootHeroPainted())).toBe(true);
    expect(FakeObserver.instances).toHaveLength(0);
  });
});

describe('renderFirst', () => {
  it('renders in a transition behind the hero, directly elsewhere', () => {
    const render = vi.fn();
    renderFirst(render);
    expect(render).toHaveBeenCalledTimes(1);
    expect(transitions.count).toBe(1);
    document.documentElement.classList.remove('boot-hero');
    renderFirst(render);
    expect(render).toHaveBeenCalledTimes(2);
    expect(transitions.count).toBe(1);
  });
});
