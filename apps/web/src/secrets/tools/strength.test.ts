import { beforeAll, describe, expect, it } from 'vitest';
import { accountInputs, PERSONAL_SCORE_CAP, scorePassword, STRENGTH_LABELS } from './strength.ts';

describe('accountInputs', () => {
  it('takes the e-mail, its local part and pieces, and the name and its words', () => {
    expect(accountInputs('Alice.Smith+work@example.com', 'Alice Smith')).toEqual([
      'alice.smith+work@example.com',
      'alice.smith+work',
      'alice',
      'smith',
      'work',
      'alice smith',
    ]);
    expect(accountInputs('bob1984@x.com', null)).toEqual(['bob1984@x.com', 'bob1984', 'bob']);
    expect(accountInputs('al@x.com', 'Jo Li')).toEqual(['al@x.com', 'jo li']);
    expect(accountInputs()).toEqual([]);
  });
});

describe('scorePassword', () => {
  // The engine's first load (its dictionaries) is slow on a busy machine: not inside a test.
  beforeAll(() => scorePassword('warm-up'), 60_000);

  it("scores a password built on the account's e-mail low, with a warning naming the part", async () => {
    const s = await scorePassword('alice2024!', accountInputs('alice@x.com', 'Alice Smith'));
    expect(s.score).toBeLessThanOrEqual(PERSONAL_SCORE_CAP);
    expect(s.label).toBe(STRENGTH_LABELS[s.score]);
    expect(s.warning).toContain('"alice"');
    expect(s.warning).toMatch(/e-mail address or name/);
    expect(s.suggestions[0]).toMatch(/name and e-mail/);
  });

  it('caps an otherwise strong password that contains the name', async () => {
    const pw = 'Zq7!xRw9#Ttrevelyan';
    const alone = await scorePassword(pw);
    const withName = await scorePassword(pw, accountInputs('t@x.com', 'Ann Trevelyan'));
    expect(alone.score).toBeGreaterThanOrEqual(3);
    expect(withName.score).toBeLessThanOrEqual(PERSONAL_SCORE_CAP);
    expect(withName.warning).toContain('"trevelyan"');
  });

  it('scores common passwords very weak and long random ones strong', async () => {
    const common = await scorePassword('password123');
    expect(common.score).toBe(0);
    expect(common.label).toBe('Very weak');
    expect(common.warning).not.toBeNull();
    const strong = await scorePassword('k#8Vq!z2Lm@9Wx$e');
    expect(strong).toEqual({ score: 4, label: 'Strong', warning: null, suggestions: [] });
  });

  it('does not blame the account for a password that does not use it', async () => {
    const s = await scorePassword('k#8Vq!z2Lm@9Wx$e', accountInputs('alice@x.com', 'Alice Smith'));
    expect(s.score).toBe(4);
    expect(s.warning).toBeNull();
  });
});
