import { describe, expect, it } from 'vitest';
import type { MoveItem } from '@sealvault/protocol';
import { planMove, progressMeter, type Wanted } from './plan.ts';

const H = (c: string) => c.repeat(64);
const file = (id: string, checksum: string, size: number): Wanted => ({
  kind: 'file',
  id,
  ref: `ref-${id}`,
  checksum: H(checksum),
  size,
});
const copy = (
  id: string,
  checksum: string,
  size: number,
  kind: 'file' | 'segment' = 'file',
): MoveItem => ({
  kind,
  id,
  ref: `target-${id}`,
  checksum: H(checksum),
  size,
});

describe('the move plan', () => {
  it('copies everything on a first run', () => {
    const plan = planMove([file('a', '1', 10), file('b', '2', 20)], []);
    expect(plan.todo.map((w) => w.id)).toEqual(['a', 'b']);
    expect(plan.done).toEqual([]);
    expect(plan.stale).toEqual([]);
  });

  it('resumes a half-done move: what was verified is not sent again', () => {
    const plan = planMove(
      [file('a', '1', 10), file('b', '2', 20), file('c', '3', 30)],
      [copy('b', '2', 20)],
    );
    expect(plan.todo.map((w) => w.id)).toEqual(['a', 'c']);
    expect(plan.done.map((i) => i.id)).toEqual(['b']);
  });

  it('copies again what changed since it was verified, and names copies nothing wants', () => {
    const plan = planMove(
      [file('a', '9', 10), file('b', '2', 21)],
      [copy('a', '1', 10), copy('b', '2', 20), copy('gone', '4', 5)],
    );
    expect(plan.todo.map((w) => w.id)).toEqual(['a', 'b']);
    expect(plan.stale.map((i) => i.id).sort()).toEqual(['a', 'b', 'gone']);
  });

  it('matches a segment by its digest and kind, its size unknown before it is read', () => {
    const seg: Wanted = { kind: 'segment', id: 's', ref: 'seg-s', checksum: H('5'), size: null };
    expect(planMove([seg], [copy('s', '5', 900, 'segment')]).todo).toEqual([]);
    expect(planMove([seg], [copy('s', '5', 900, 'file')]).todo).toEqual([seg]);
  });
});

describe('the move progress', () => {
  it('counts bytes and files over the run, with speed and time left', () => {
    let t = 0;
    const meter = progressMeter(
      planMove(
        [file('a', '1', 100), file('b', '2', 300), file('c', '3', 100)],
        [copy('c', '3', 100)],
      ),
      () => t,
    );
    // c was verified before this run: done, but not in the speed.
    expect(meter.snapshot()).toMatchObject({
      items: { done: 1, total: 3 },
      bytes: { done: 100, total: 500 },
    });
    meter.start(file('a', '1', 100));
    t = 1000;
    const mid = meter.sent(50);
    expect(mid.current).toEqual({ id: 'a', sent: 50, size: 100 });
    expect(mid.bytesPerSecond).toBe(50);
    expect(mid.secondsLeft).toBe(7); // 350 bytes left at 50 B/s
    const after = meter.finished(100);
    expect(after).toMatchObject({
      items: { done: 2, total: 3 },
      bytes: { done: 200, total: 500 },
      current: null,
    });
  });

  it('has no speed before half a second or a byte', () => {
    const meter = progressMeter(planMove([file('a', '1', 100)], []), () => 0);
    expect(meter.snapshot()).toMatchObject({ bytesPerSecond: null, secondsLeft: null });
  });
});
