import { describe, expect, it, vi } from 'vitest';
import { vaultHealth, type HealthItem, type ScoreBatch } from '../tools/health.ts';
import { scorePassword, type Score, type Strength } from '../tools/strength.ts';
import {
  answerScoreRequest,
  healthScoreBatch,
  workerScoreBatch,
  type ScoreReply,
  type ScoreRequest,
  type ScoreWorker,
} from './healthScoring.ts';

const strength = (score: Score): Strength => ({
  score,
  label: 'Weak',
  warning: null,
  suggestions: [],
});

/** A Worker in this thread: answers each request with `answer`, a message at a time. */
function fakeWorker(
  answer: (r: ScoreRequest) => Promise<ScoreReply> = (r) => answerScoreRequest(r),
) {
  const listeners: { message: ((e: MessageEvent<ScoreReply>) => void)[]; error: (() => void)[] } = {
    message: [],
    error: [],
  };
  const requests: ScoreRequest[] = [];
  const terminate = vi.fn();
  const worker: ScoreWorker = {
    postMessage(request) {
      requests.push(request);
      void answer(request).then((data) => {
        for (const l of listeners.message) l(new MessageEvent('message', { data }));
      });
    },
    addEventListener(type: 'message' | 'error', listener: never) {
      listeners[type].push(listener);
    },
    terminate,
  };
  const fail = () => listeners.error.forEach((l) => l());
  return { worker, requests, fail, terminate };
}

const noFallback: ScoreBatch = () => Promise.reject(new Error('scored on the page'));

describe('the Worker side', () => {
  it('answers the zxcvbn scores of a batch, in order', async () => {
    const passwords = ['password123', 'k#8Vq!z2Lm@9Wx$e', 'alice2024!'];
    const reply = await answerScoreRequest({ id: 7, passwords, userInputs: ['alice'] });
    const expected = await Promise.all(passwords.map((p) => scorePassword(p, ['alice'])));
    expect(reply).toEqual({ id: 7, ok: true, scores: expected.map((s) => s.score) });
    expect(reply.ok && reply.scores[0]).toBeLessThanOrEqual(2);
    expect(reply.ok && reply.scores[1]).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('answers an error as plain data', async () => {
    const score = () => Promise.reject(new Error('engine did not load'));
    expect(await answerScoreRequest({ id: 3, passwords: ['x'], userInputs: [] }, score)).toEqual({
      id: 3,
      ok: false,
      message: 'engine did not load',
    });
  });
});

describe('workerScoreBatch', () => {
  it('starts the Worker on the first batch and sends one message per batch', async () => {
    const fake = fakeWorker((r) =>
      answerScoreRequest(r, (p) => Promise.resolve(strength(p.length > 3 ? 4 : 0))),
    );
    const connect = vi.fn(() => fake.worker);
    const batch = workerScoreBatch(connect, noFallback);
    expect(connect).not.toHaveBeenCalled();
    expect(await batch(['abc', 'abcdef'], ['me'])).toEqual([0, 4]);
    expect(await batch(['abcd'], [])).toEqual([4]);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(fake.requests).toEqual([
      { id: 1, passwords: ['abc', 'abcdef'], userInputs: ['me'] },
      { id: 2, passwords: ['abcd'], userInputs: [] },
    ]);
  });

  it('matches replies to their batches when they come back out of order', async () => {
    let release = () => undefined as void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const fake = fakeWorker(async (r) => {
      if (r.id === 1) await slow;
      return { id: r.id, ok: true, scores: r.passwords.map(() => (r.id === 1 ? 1 : 3)) };
    });
    const batch = workerScoreBatch(() => fake.worker, noFallback);
    const first = batch(['a'], []);
    expect(await batch(['b', 'c'], [])).toEqual([3, 3]);
    release();
    expect(await first).toEqual([1]);
  });

  it('scores on the page from the moment the Worker fails, the batch in flight too', async () => {
    const fake = fakeWorker(() => new Promise<never>(() => undefined));
    const fallback = vi.fn<ScoreBatch>((pws) => Promise.resolve(pws.map(() => 2)));
    const batch = workerScoreBatch(() => fake.worker, fallback);
    const inFlight = batch(['a', 'b'], ['me']);
    await Promise.resolve();
    fake.fail();
    expect(await inFlight).toEqual([2, 2]);
    expect(fake.terminate).toHaveBeenCalled();
    expect(await batch(['c'], [])).toEqual([2]);
    expect(fake.requests).toHaveLength(1);
    expect(fallback.mock.calls).toEqual([
      [['a', 'b'], ['me']],
      [['c'], []],
    ]);
  });

  it('scores on the page when the Worker answers an error, or cannot be made', async () => {
    const fallback = vi.fn<ScoreBatch>((pws) => Promise.resolve(pws.map(() => 4)));
    const fake = fakeWorker((r) => answerScoreRequest(r, () => Promise.reject(new Error('no'))));
    expect(await workerScoreBatch(() => fake.worker, fallback)(['a'], [])).toEqual([4]);
    const refused = workerScoreBatch(() => {
      throw new DOMException('refused by the CSP', 'SecurityError');
    }, fallback);
    expect(await refused(['b'], [])).toEqual([4]);
    expect(fallback).toHaveBeenCalledTimes(2);
  });

  it('gives vaultHealth the same findings as scoring on the page', async () => {
    const now = Date.parse('2026-11-24T00:00:00.000Z');
    const items: HealthItem[] = ['password123', 'k#8Vq!z2Lm@9Wx$e', 'password123', 'qwerty'].map(
      (password, n) => ({ id: `i${n}`, title: `I${n}`, password, updated_at: now }),
    );
    const fake = fakeWorker();
    const scoreBatch = workerScoreBatch(() => fake.worker, noFallback);
    const health = await vaultHealth(items, now, { scoreBatch, batchSize: 2 });
    expect(fake.requests.map((r) => r.passwords.length)).toEqual([2, 1]);
    expect(health).toEqual(await vaultHealth(items, now));
    expect(health.weak).toEqual(['i0', 'i2', 'i3']);
  }, 60_000);
});

it('has no Worker scorer where there is no Worker (the scan then scores on the page)', () => {
  expect(typeof Worker).toBe('undefined');
  expect(healthScoreBatch()).toBeUndefined();
});
