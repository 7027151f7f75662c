import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { OLD_AFTER_DAYS, vaultHealth, type HealthItem, type ScoreBatch } from './health.ts';
import type { Score } from './strength.ts';

const NOW = Date.parse('2026-11-24T00:00:00.000Z');
const DAY = 86_400_000;
const iso = (daysAgo: number) => new Date(NOW - daysAgo * DAY).toISOString();
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

const STRONG = 'k#8Vq!z2Lm@9Wx$e';
const items: HealthItem[] = [
  { id: 'a', title: 'Mail', password: 'password123', updated_at: iso(10) },
  { id: 'b', title: 'Bank', password: STRONG, updated_at: iso(400) },
  { id: 'c', title: 'Shop', password: STRONG, updated_at: iso(OLD_AFTER_DAYS) },
  { id: 'd', title: 'Note', password: '', updated_at: iso(1000) },
  { id: 'e', title: 'Wiki', updated_at: iso(1000) },
  { id: 'f', title: 'Forum', password: 'password123', updated_at: NOW - 364 * DAY },
  { id: 'g', title: 'Café', password: 'Tŕ0ub4dor&3-пароль-ü', updated_at: iso(2) },
  { id: 'h', title: 'Game', password: 'Tŕ0ub4dor&3-пароль-ü', updated_at: 'not a date' },
  { id: 'i', title: 'Job', password: 'alice2024!', updated_at: iso(0) },
];

describe('vaultHealth', () => {
  it('finds weak, reused and old passwords with the real scorer', async () => {
    const health = await vaultHealth(items, NOW, { userInputs: ['alice@x.com', 'alice'] });
    expect(health.weak).toEqual(['a', 'f', 'i']);
    expect(health.reused).toEqual([
      { passwordHash: sha('password123'), ids: ['a', 'f'] },
      { passwordHash: sha(STRONG), ids: ['b', 'c'] },
      { passwordHash: sha('Tŕ0ub4dor&3-пароль-ü'), ids: ['g', 'h'] },
    ]);
    expect(health.old).toEqual(['b', 'c']);
  }, 60_000);

  it('never puts a password in its result', async () => {
    const health = await vaultHealth(items, NOW);
    const text = JSON.stringify(health);
    for (const i of items) if (i.password) expect(text).not.toContain(i.password);
  }, 60_000);

  it('scores each distinct password once and treats score 2 as weak, 3 as not', async () => {
    const scores: Record<string, Score> = { password123: 2, [STRONG]: 3 };
    const score = vi.fn((pw: string) => Promise.resolve(scores[pw] ?? 4));
    const health = await vaultHealth(items, NOW, { score });
    expect(score).toHaveBeenCalledTimes(4);
    expect(health.weak).toEqual(['a', 'f']);
  });

  it('passes the account inputs to the scorer', async () => {
    const score = vi.fn(() => Promise.resolve(4 as Score));
    await vaultHealth([items[0]!], NOW, { score, userInputs: ['alice'] });
    expect(score).toHaveBeenCalledWith('password123', ['alice']);
  });

  it('takes updated_at in ms as well, and counts exactly 365 days as old', async () => {
    const score = () => Promise.resolve(4 as Score);
    const health = await vaultHealth(
      [
        { id: 'x', title: 'x', password: 'p1', updated_at: NOW - 365 * DAY },
        { id: 'y', title: 'y', password: 'p2', updated_at: NOW - 365 * DAY + 1 },
      ],
      NOW,
      { score },
    );
    expect(health).toEqual({ weak: [], reused: [], old: ['x'] });
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const score = vi.fn(() => {
      controller.abort(new Error('closed'));
      return Promise.resolve(4 as Score);
    });
    await expect(vaultHealth(items, NOW, { score, signal: controller.signal })).rejects.toThrow(
      'closed',
    );
    expect(score).toHaveBeenCalledTimes(1);
  });

  it('with kept scores, scores only the new password of a rescan and finds the same', async () => {
    const scoreTable: Record<string, Score> = { password123: 2, [STRONG]: 3, changed: 1 };
    const score = vi.fn((pw: string) => Promise.resolve(scoreTable[pw] ?? 4));
    const scores = new Map<string, Score>();
    await vaultHealth(items, NOW, { score, scores });
    expect(score).toHaveBeenCalledTimes(4);
    expect([...scores.keys()].sort()).toEqual(
      ['password123', STRONG, 'Tŕ0ub4dor&3-пароль-ü', 'alice2024!'].map(sha).sort(),
    );

    const edited = items.map((i) => (i.id === 'i' ? { ...i, password: 'changed' } : i));
    score.mockClear();
    const health = await vaultHealth(edited, NOW, { score, scores });
    expect(score.mock.calls).toEqual([['changed', []]]);
    const fresh = await vaultHealth(edited, NOW, { score });
    expect(health).toEqual(fresh);
    expect(health.weak).toEqual(['a', 'f', 'i']);
  });

  it('sends the unscored passwords to scoreBatch in batches, each distinct one once', async () => {
    const many: HealthItem[] = Array.from({ length: 460 }, (_, n) => ({
      id: `s${n}`,
      title: `S${n}`,
      // 450 distinct passwords: the last 10 items reuse the first 10's.
      password: `pw-${n % 450}`,
      updated_at: NOW,
    }));
    const scoreOf = (pw: string): Score => (Number(pw.slice(3)) % 5) as Score;
    const scoreBatch = vi.fn<ScoreBatch>((passwords) => Promise.resolve(passwords.map(scoreOf)));
    const pauses: number[] = [];
    const health = await vaultHealth(many, NOW, {
      scoreBatch,
      batchSize: 200,
      userInputs: ['bob'],
      pause: (ms) => {
        pauses.push(ms);
        return Promise.resolve();
      },
    });
    expect(scoreBatch.mock.calls.map(([pws]) => pws.length)).toEqual([200, 200, 50]);
    // A pause after each batch but the last, told how long the batch took.
    expect(pauses).toHaveLength(2);
    expect(pauses.every((ms) => ms >= 0)).toBe(true);
    expect(scoreBatch.mock.calls.flatMap(([pws]) => pws)).toEqual(
      Array.from({ length: 450 }, (_, n) => `pw-${n}`),
    );
    expect(scoreBatch.mock.calls.every(([, inputs]) => inputs.join() === 'bob')).toBe(true);
    const onThisThread = await vaultHealth(many, NOW, {
      score: (pw) => Promise.resolve(scoreOf(pw)),
    });
    expect(health).toEqual(onThisThread);
    expect(health.weak).toHaveLength(3 * 90 + 3 * 2);
  });

  it('keeps the scores of the batch in flight when stopped, and stops before the next', async () => {
    const controller = new AbortController();
    const scores = new Map<string, Score>();
    const scoreBatch = vi.fn<ScoreBatch>((passwords) => {
      controller.abort(new Error('newer list'));
      return Promise.resolve(passwords.map(() => 4));
    });
    await expect(
      vaultHealth(items, NOW, { scoreBatch, batchSize: 2, scores, signal: controller.signal }),
    ).rejects.toThrow('newer list');
    expect(scoreBatch).toHaveBeenCalledTimes(1);
    expect([...scores.keys()]).toEqual([sha('password123'), sha(STRONG)]);
  });

  it('refuses a batch answered with the wrong number of scores', async () => {
    const scoreBatch: ScoreBatch = () => Promise.resolve([4]);
    await expect(vaultHealth(items, NOW, { scoreBatch })).rejects.toThrow(
      '1 scores for a batch of 4 passwords',
    );
  });

  it('answers empty lists for an empty vault', async () => {
    expect(await vaultHealth([], NOW)).toEqual({ weak: [], reused: [], old: [] });
  });
});
