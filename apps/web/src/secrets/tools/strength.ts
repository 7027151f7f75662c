// Password strength (issue 20), shown on secret and vault passwords and used by the vault health:
// zxcvbn-ts's estimate (common passwords, names, words, dates, keyboard patterns, l33t) with its
// English feedback. A vault password is also held against the account's e-mail and name, which an
// attacker who targets this account knows: a password built on them is capped at "Weak" and its
// warning names the part it took. Loaded on first use: the dictionaries are about 1 MB of script.
import type { ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core';

export type Score = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  score: Score;
  label: (typeof STRENGTH_LABELS)[Score];
  warning: string | null;
  suggestions: string[];
}

// Texts marked as ours (conventions.md, "Errors and messages").
// The labels are shown with t(label). msg is i18n.ts's marker, kept here so the health Worker,
// which scores with this module, does not load i18next.
const msg = <T extends string>(text: T): T => text;
export const STRENGTH_LABELS = [
  msg('Very weak'),
  msg('Weak'),
  msg('Fair'),
  msg('Good'),
  msg('Strong'),
] as const;
const personalWarning = (token: string) =>
  `This password contains "${token}", from your account's e-mail address or name.`;
const PERSONAL_SUGGESTION = 'Avoid your name and e-mail address in a password.';

/** The highest score of a password that contains the account's e-mail address or name. */
export const PERSONAL_SCORE_CAP: Score = 1;
/** Inputs shorter than this match too much by chance ("al" in "calendar") to be useful. */
const MIN_INPUT_LENGTH = 3;

/**
 * What a password is held against for an account: the e-mail, its local part and the pieces of
 * that (alice.smith+work → alice, smith, work), the name and each word of it.
 */
export function accountInputs(email?: string | null, name?: string | null): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    const t = s.trim().toLowerCase();
    if (t.length >= MIN_INPUT_LENGTH) out.add(t);
  };
  if (email) {
    add(email);
    const local = email.split('@')[0] ?? '';
    add(local);
    local.split(/[^\p{L}\p{N}]+/u).forEach(add);
    local.split(/[^\p{L}]+/u).forEach(add);
  }
  if (name) {
    add(name);
    name.split(/[^\p{L}\p{N}]+/u).forEach(add);
  }
  return [...out];
}

let engine: Promise<ZxcvbnFactory> | undefined;

/** The zxcvbn-ts engine with the common and English dictionaries, built once. */
function loadEngine(): Promise<ZxcvbnFactory> {
  engine ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        translations: en.translations,
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary, ...en.dictionary },
      }),
  );
  return engine;
}

/** Starts loading the engine ahead of the first score (for a form about to ask for one). */
export function preloadStrength(): void {
  void loadEngine();
}

/** Turns zxcvbn's result into ours, applying the personal-data cap. */
export function toStrength(result: ZxcvbnResult): Strength {
  const personal = result.sequence.find(
    (m) => m.pattern === 'dictionary' && 'dictionaryName' in m && m.dictionaryName === 'userInputs',
  );
  let score = result.score;
  let warning = result.feedback.warning || null;
  let suggestions = result.feedback.suggestions;
  if (personal) {
    score = Math.min(score, PERSONAL_SCORE_CAP) as Score;
    warning = personalWarning(personal.token);
    suggestions = [PERSONAL_SUGGESTION, ...suggestions];
  }
  return { score, label: STRENGTH_LABELS[score], warning, suggestions };
}

/**
 * The strength of `password`, held against `userInputs` too (see {@link accountInputs}). Computed
 * on this device; nothing is sent anywhere.
 */
export async function scorePassword(
  password: string,
  userInputs: string[] = [],
): Promise<Strength> {
  const zxcvbn = await loadEngine();
  return toStrength(zxcvbn.check(password, userInputs));
}
