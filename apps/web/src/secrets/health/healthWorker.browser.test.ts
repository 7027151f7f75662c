// The health scan's Worker in Chromium: the real module Worker as Vite serves it, zxcvbn-ts loaded
// inside it. Its scores are the page's, vaultHealth finds the same through it, and the page keeps
// running while it scores (the point of it: a scan no longer holds up typing).
import { describe, expect, it } from 'vitest';
import { vaultHealth, type HealthItem, type ScoreBatch } from '../tools/health.ts';
import { scorePassword } from '../tools/strength.ts';
import { connectHealthWorker, healthScoreBatch, workerScoreBatch } from './healthScoring.ts';

const onPage: ScoreBatch = () => Promise.reject(new Error('scored on the page, not in the Worker'));

const PASSWORDS = [
  'password123',
  'k#8Vq!z2Lm@9Wx$e',
  'Tŕ0ub4dor&3-пароль-ü',
  'alice2024!',
  'correct horse battery staple',
  'qwerty',
];

describe('the health Worker', () => {
  it('answers the scores the page computes, in order', async () => {
    const batch = workerScoreBatch(connectHealthWorker, onPage);
    const inputs = ['alice@example.com', 'alice'];
    const expected = await Promise.all(PASSWORDS.map((p) => scorePassword(p, inputs)));
    expect(await batch(PASSWORDS, inputs)).toEqual(expected.map((s) => s.score));
  });

  it('gives vaultHealth the same findings as scoring on the page', async () => {
    const now = Date.now();
    const items: HealthItem[] = [...PASSWORDS, 'qwerty', 'password123'].map((password, n) => ({
      id: `i${n}`,
      title: `I${n}`,
      password,
      updated_at: now - n * 200 * 86_400_000,
    }));
    const scoreBatch = healthScoreBatch();
    expect(scoreBatch).toBeDefined();
    const health = await vaultHealth(items, now, { ...(scoreBatch ? { scoreBatch } : {}) });
    expect(health).toEqual(await vaultHealth(items, now));
    expect(health.weak).toEqual(expect.arrayContaining(['i0', 'i5', 'i6', 'i7']));
    expect(health.reused.map((g) => g.ids)).toEqual([
      ['i0', 'i7'],
      ['i5', 'i6'],
    ]);
  });

  it('leaves the page free while it scores a batch', async () => {
    const batch = workerScoreBatch(connectHealthWorker, onPage);
    await batch(['warm up'], []); // the engine loads in the Worker
    // Long random passwords: zxcvbn's slowest, tens to hundreds of ms each.
    const passwords = Array.from({ length: 20 }, (_, n) => `k#8Vq!z2Lm@9Wx$e-${n}-Yt%3`);
    let last = performance.now();
    let longest = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const t = performance.now();
      longest = Math.max(longest, t - last);
      last = t;
      ticks += 1;
    }, 10);
    const started = performance.now();
    const scores = await batch(passwords, []);
    const took = performance.now() - started;
    clearInterval(timer);
    expect(scores).toHaveLength(20);
    // On the page, the batch would be one long task: no tick in between.
    expect(took).toBeGreaterThan(300);
    expect(ticks).toBeGreaterThan(took / 10 / 4);
    expect(longest).toBeLessThan(took / 3);
  });
});
