// The server's version (issue 33), for GET /api/health, the start-up log line and the metrics:
// the root package.json's version and the git commit it was built from. The commit comes from
// GIT_COMMIT (the image is built with it, Dockerfile), else from `git rev-parse` where the sources
// are a git checkout, else "unknown". Nothing here may stop the server from starting: whatever
// cannot be read is "unknown".
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export interface ServerVersion {
  /** The root package.json's version, e.g. "0.1.0". */
  version: string;
  /** The short git commit, e.g. "b1b9041", or "unknown". */
  commit: string;
}

const UNKNOWN = 'unknown';
/** A version or commit we are willing to show and log: a short token, nothing else. */
const token = z.string().regex(/^[A-Za-z0-9._+-]{1,64}$/);
const packageJson = z.object({ version: token });

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** `git rev-parse --short HEAD` in `root`, bounded in time; throws when git cannot answer. */
function gitCommit(root: string): string {
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 2000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

export function readVersion(
  opts: {
    env?: Record<string, string | undefined>;
    /** The repository's root: package.json, and .git in a checkout. */
    root?: string;
    git?: (root: string) => string;
  } = {},
): ServerVersion {
  const { env = process.env, root = REPO_ROOT, git = gitCommit } = opts;
  let version = UNKNOWN;
  try {
    const parsed = packageJson.safeParse(
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')),
    );
    if (parsed.success) version = parsed.data.version;
  } catch {
    // unreadable: unknown
  }
  let commit = UNKNOWN;
  const fromEnv = token.safeParse(env.GIT_COMMIT?.trim());
  if (fromEnv.success) commit = fromEnv.data;
  else if (fs.existsSync(path.join(root, '.git'))) {
    try {
      const fromGit = token.safeParse(git(root).trim());
      if (fromGit.success) commit = fromGit.data;
    } catch {
      // no git, or not a checkout git can read: unknown
    }
  }
  return { version, commit };
}

let cached: ServerVersion | undefined;

/** This process's version, read once. */
export const serverVersion = (): ServerVersion => (cached ??= readVersion());
