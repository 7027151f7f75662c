// What a bench's child processes use, read from /proc (Linux): resident memory and CPU seconds
// of the server and of each kind of Chromium process (browser, renderer, GPU, network...).
import fs from 'node:fs';

/** VmRSS (MiB) of one process, 0 once it is gone. */
export function rssMiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** VmRSS (MiB) of the Chromium processes under `root` by kind (browser, renderer, ...). */
export const rssByKind: Record<string, number> = {};

/** Sum of VmRSS (MiB) of the Chromium processes under `root` (this process launched them). */
export function treeRssMiB(root: number): number {
  const parent = new Map<string, string>();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]!);
    } catch {
      // gone
    }
  }
  const inTree = (pid: string): boolean =>
    pid === String(root) || (parent.has(pid) && pid !== '1' && inTree(parent.get(pid)!));
  let kb = 0;
  const now: Record<string, number> = {};
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(cmd)) continue;
      const rss = Number(
        /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
      );
      kb += rss;
      let kind = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
      if (kind === 'utility') kind = /network/i.test(cmd) ? 'network' : 'utility';
      now[kind] = (now[kind] ?? 0) + rss / 1024;
    } catch {
      // gone
    }
  }
  for (const [k, v] of Object.entries(now)) rssByKind[k] = Math.max(rssByKind[k] ?? 0, v);
  return kb / 1024;
}

/**
 * CPU seconds (user + system) used so far by the processes under `root`, by kind: the server
 * (node), and Chromium's browser, renderer, GPU and utility (network) processes.
 */
export function treeCpu(root: number): Record<string, number> {
  const tick = 100; // USER_HZ on Linux
  const info = new Map<string, { parent: string; cpu: number }>();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      info.set(pid, { parent: f[1]!, cpu: (Number(f[11]) + Number(f[12])) / tick });
    } catch {
      // gone
    }
  }
  const inTree = (pid: string): boolean =>
    pid === String(root) || (info.has(pid) && pid !== '1' && inTree(info.get(pid)!.parent));
  const out: Record<string, number> = {};
  for (const [pid, { cpu }] of info) {
    if (pid === String(root) || !inTree(pid)) continue;
    let kind = 'other';
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (/chrom/i.test(cmd)) kind = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
      else if (/node/.test(cmd)) kind = 'server';
      if (kind === 'utility') kind = /network/i.test(cmd) ? 'network' : 'utility';
    } catch {
      continue;
    }
    if (process.env.BENCH_THREADS && (kind === 'renderer' || kind === 'gpu-process')) {
      // Per thread (by its name): where the renderer's time goes.
      for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
        try {
          const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
          const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const key = `${kind}:${name}`;
          out[key] = (out[key] ?? 0) + (Number(f[11]) + Number(f[12])) / tick;
        } catch {
          // gone
        }
      }
      continue;
    }
    out[kind] = (out[kind] ?? 0) + cpu;
  }
  return out;
}

export function cpuDelta(a: Record<string, number>, b: Record<string, number>): string {
  const kinds = Object.keys(b).filter((k) => (b[k] ?? 0) - (a[k] ?? 0) >= 0.05);
  const total = kinds.reduce((n, k) => n + b[k]! - (a[k] ?? 0), 0);
  return `${total.toFixed(1)} s (${kinds.map((k) => `${k} ${(b[k]! - (a[k] ?? 0)).toFixed(1)}`).join(', ')})`;
}
