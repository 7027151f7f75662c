// File-size padding for vf1 (issue 18, "Decide on and document file-size padding"): what padding
// plaintext sizes would cost in bytes stored and sent, and what it would hide. Two schemes:
// - Padmé (Nikitin et al., "Reducing Metadata Leakage from Encrypted Files and Communication with
//   PURBs", PETS 2019): keeps the top bits of the size, so overhead <= 12% and a size leaks
//   O(log log n) bits;
// - power of two (the next 2^k >= n): leaks log log n bits, overhead up to 100%.
// Corpora: every regular file under the given directories (default: this repo's node_modules,
// a real mix of tiny and large files), and a log-uniform synthetic set from 1 KiB to 4 GiB.
// Run: npx tsx bench/padding/run.ts [dir ...]
import fs from 'node:fs';
import path from 'node:path';

/** Padmé: the size rounded up so that only its top log2(log2 n)+1 bits are free. */
export function padme(n: number): number {
  if (n < 2) return n;
  const e = Math.floor(Math.log2(n));
  const s = Math.floor(Math.log2(e)) + 1;
  const lastBits = e - s;
  const mask = 2 ** lastBits - 1;
  return Math.ceil(n / (mask + 1)) * (mask + 1);
}

const pow2 = (n: number) => (n <= 1 ? n : 2 ** Math.ceil(Math.log2(n)));

function walk(dir: string, out: number[], limit: number) {
  const stack = [dir];
  while (stack.length && out.length < limit) {
    const d = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) {
        const size = fs.statSync(p).size;
        if (size > 0) out.push(size);
      }
    }
  }
  return out;
}

function logUniform(count: number, min: number, max: number) {
  // Deterministic: a fixed linear congruential sequence, so reruns give the same corpus.
  let x = 12345;
  const sizes: number[] = [];
  for (let i = 0; i < count; i += 1) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const u = x / 2 ** 31;
    sizes.push(Math.round(Math.exp(Math.log(min) + u * (Math.log(max) - Math.log(min)))));
  }
  return sizes;
}

function report(name: string, sizes: number[]) {
  const total = sizes.reduce((a, b) => a + b, 0);
  const row = (label: string, f: (n: number) => number) => {
    const padded = sizes.map(f);
    const extra = padded.reduce((a, b) => a + b, 0) - total;
    const worst = Math.max(...sizes.map((n, i) => (padded[i]! - n) / n));
    const distinct = new Set(padded).size;
    return `| ${name} | ${label} | ${sizes.length.toLocaleString('en')} | ${((100 * extra) / total).toFixed(2)}% | ${(100 * worst).toFixed(1)}% | ${distinct.toLocaleString('en')} (${((100 * distinct) / new Set(sizes).size).toFixed(1)}% of exact) |`;
  };
  console.log(row('none', (n) => n));
  console.log(row('Padmé', padme));
  console.log(row('next power of 2', pow2));
}

const dirs = process.argv.slice(2);
const real = walk(dirs[0] ?? path.resolve(import.meta.dirname, '../../node_modules'), [], 200_000);
for (const d of dirs.slice(1)) walk(d, real, 400_000);
console.log('| corpus | padding | files | extra bytes (all files) | worst file | distinct sizes |');
console.log('| --- | --- | --- | --- | --- | --- |');
report('node_modules (real files)', real);
report('log-uniform 1 KiB..4 GiB', logUniform(100_000, 1024, 4 * 2 ** 30));
