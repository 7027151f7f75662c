// The plan of a vault's move (issue 27; docs/architecture.md, "Moving a vault"): what is still to
// copy, given what the server recorded as verified on the target, and the figures of its progress.
// Pure: the engine (engine.ts) does the copying.
import type { MoveItem, MoveItemKind } from '@sealvault/protocol';

/** One thing the vault holds on its provider now: a file's blob or a secrets segment. */
export interface Wanted {
  kind: MoveItemKind;
  id: string;
  /** Where the source provider keeps it. */
  ref: string;
  /** A file's content hash as its record holds it; a segment's SHA-256 as the manifest pins it. */
  checksum: string;
  /** Bytes, where known before reading (a file's ciphertext size); null for a segment. */
  size: number | null;
}

export interface MovePlan {
  /** Not yet verified on the target, in the order given. */
  todo: Wanted[];
  /** Verified on the target before: a resumed move does not send them again. */
  done: MoveItem[];
  /** Recorded copies nothing wants any more (the file was deleted or changed meanwhile). */
  stale: MoveItem[];
}

const sameCopy = (w: Wanted, r: MoveItem) =>
  w.kind === r.kind &&
  w.id === r.id &&
  w.checksum === r.checksum &&
  (w.size === null || w.size === r.size);

export function planMove(wanted: readonly Wanted[], recorded: readonly MoveItem[]): MovePlan {
  const byId = new Map(recorded.map((r) => [`${r.kind}:${r.id}`, r]));
  const todo: Wanted[] = [];
  const done: MoveItem[] = [];
  const used = new Set<MoveItem>();
  for (const w of wanted) {
    const r = byId.get(`${w.kind}:${w.id}`);
    if (r && sameCopy(w, r)) {
      done.push(r);
      used.add(r);
    } else todo.push(w);
  }
  return { todo, done, stale: recorded.filter((r) => !used.has(r)) };
}

export interface MoveProgress {
  items: { done: number; total: number };
  bytes: { done: number; total: number };
  /** The item being copied now and its bytes sent, or null between items. */
  current: { id: string; sent: number; size: number | null } | null;
  /** Over the bytes copied in this run (not those verified before it); null until measurable. */
  bytesPerSecond: number | null;
  /** At that speed; null while the speed is unknown. */
  secondsLeft: number | null;
}

/** Progress figures over a plan, fed as bytes are sent; `now` in ms. */
export function progressMeter(plan: MovePlan, now: () => number = () => performance.now()) {
  const total = plan.todo.reduce((n, w) => n + (w.size ?? 0), 0) + sum(plan.done);
  const itemsTotal = plan.todo.length + plan.done.length;
  let itemsDone = plan.done.length;
  const bytesBefore = sum(plan.done); // verified in an earlier run
  let bytesRun = 0; // finished items of this run
  let current: MoveProgress['current'] = null;
  const started = now();
  const snapshot = (): MoveProgress => {
    const sentNow = bytesRun + (current?.sent ?? 0);
    const seconds = (now() - started) / 1000;
    const speed = seconds >= 0.5 && sentNow > 0 ? sentNow / seconds : null;
    const done = bytesBefore + sentNow;
    return {
      items: { done: itemsDone, total: itemsTotal },
      bytes: { done, total: Math.max(total, done) },
      current,
      bytesPerSecond: speed,
      secondsLeft: speed ? Math.max(0, (Math.max(total, done) - done) / speed) : null,
    };
  };
  return {
    start(w: Wanted) {
      current = { id: w.id, sent: 0, size: w.size };
      return snapshot();
    },
    sent(bytes: number) {
      if (current) current = { ...current, sent: bytes };
      return snapshot();
    },
    finished(size: number) {
      bytesRun += size;
      itemsDone += 1;
      current = null;
      return snapshot();
    },
    snapshot,
  };
}

const sum = (items: readonly MoveItem[]) => items.reduce((n, i) => n + i.size, 0);
