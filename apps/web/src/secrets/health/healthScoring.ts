// The health scan's strength scores, off the page thread: one dedicated module Worker
// (healthWorker.ts) loads zxcvbn-ts itself, so its dictionaries (about 1.6 MB of script) are
// parsed there and a 5,000-password scan no longer holds up typing or edits. The page sends the
// passwords a batch at a time (tools/health.ts decides how many) and gets their scores back in
// order. The Worker starts on the first scan and stays for the page's life; it keeps nothing
// between batches. Where there is no Worker (unit tests) the scan scores on the page as before;
// where the Worker fails (its script refused, the engine not loading there), this batch and every
// later one are scored on the page instead, so a report still comes.
import { scoreOnThisThread, type ScoreBatch } from '../tools/health.ts';
import { scorePassword, type Score } from '../tools/strength.ts';

/** Page to Worker: score these, in this order. */
export interface ScoreRequest {
  id: number;
  passwords: string[];
  userInputs: string[];
}

/** Worker to page. An error travels as plain data (conventions.md, "Crypto"). */
export type ScoreReply =
  { id: number; ok: true; scores: Score[] } | { id: number; ok: false; message: string };

/** The Worker's side: the scores of one request, or why there are none. */
export async function answerScoreRequest(
  request: ScoreRequest,
  score = scorePassword,
): Promise<ScoreReply> {
  try {
    const scores: Score[] = [];
    for (const password of request.passwords) {
      scores.push((await score(password, request.userInputs)).score);
    }
    return { id: request.id, ok: true, scores };
  } catch (err) {
    return { id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** What the page needs of a Worker (a real one, or a fake in tests). */
export interface ScoreWorker {
  postMessage(request: ScoreRequest): void;
  addEventListener(type: 'message', listener: (e: MessageEvent<ScoreReply>) => void): void;
  addEventListener(type: 'error', listener: (e: Event) => void): void;
  terminate(): void;
}

/**
 * A {@link ScoreBatch} over the Worker `connect` makes (on the first call): one message per
 * batch. When the Worker fails, it is let go and `fallback` scores from then on.
 */
export function workerScoreBatch(connect: () => ScoreWorker, fallback: ScoreBatch): ScoreBatch {
  let worker: ScoreWorker | null = null;
  let failed = false;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (scores: Score[]) => void; reject: (err: Error) => void }
  >();

  const fail = (why: string) => {
    failed = true;
    worker?.terminate();
    worker = null;
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
  };

  const start = (): ScoreWorker => {
    const w = connect();
    w.addEventListener('message', (e) => {
      const reply = e.data;
      const p = pending.get(reply.id);
      pending.delete(reply.id);
      if (reply.ok) p?.resolve(reply.scores);
      else p?.reject(new Error(reply.message));
    });
    // A script that does not load (or throws) says no more than this.
    w.addEventListener('error', () => fail('The health Worker failed'));
    return w;
  };

  return async (passwords, userInputs) => {
    if (!failed) {
      try {
        const w = (worker ??= start());
        return await new Promise<Score[]>((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          w.postMessage({ id, passwords, userInputs });
        });
      } catch (err) {
        if (!failed) fail(err instanceof Error ? err.message : String(err));
      }
    }
    return fallback(passwords, userInputs);
  };
}

/** Starts the health Worker (Vite bundles healthWorker.ts and what it imports, zxcvbn-ts too). */
export const connectHealthWorker = (): ScoreWorker =>
  new Worker(new URL('./healthWorker.ts', import.meta.url), { type: 'module', name: 'health' });

let shared: ScoreBatch | undefined;

/**
 * The app's Worker scorer, or undefined where this browser (or test environment) has no Worker:
 * the scan then scores on this thread (tools/health.ts).
 */
export function healthScoreBatch(): ScoreBatch | undefined {
  if (typeof Worker === 'undefined') return undefined;
  shared ??= workerScoreBatch(connectHealthWorker, scoreOnThisThread());
  return shared;
}
