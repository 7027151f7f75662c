// The server process's standard output (issue 33): JSON log lines only, from a refused
// configuration to the shutdown, with the version on the start-up lines.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const main = path.resolve(import.meta.dirname, 'main.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sealvault-main-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  stdout: string;
  code: number | null;
}

/** Runs main.ts until it exits, or until `stopWhen` sees its output (then SIGTERM). */
function run(env: Record<string, string>, stopWhen?: (stdout: string) => boolean): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let stopped = false;
  return new Promise<Run>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit: ${stdout}${stderr}`));
    }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!stopped && stopWhen?.(stdout)) {
        stopped = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ stdout, code });
    });
  });
}

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('standard output', () => {
  it('writes a refused configuration as one JSON line, naming the variable, and exits 1', async () => {
    const { stdout, code } = await run({ DATA_DIR: dataDir, PORT: 'abc' });
    expect(code).toBe(1);
    const lines = jsonLines(stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(60);
    expect(lines[0]?.msg).toMatch(/^Invalid configuration: PORT/);
  }, 40_000);

  it('is JSON lines only from start-up to shutdown, the start-up lines with the version', async () => {
    const { stdout, code } = await run(
      { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', GIT_COMMIT: 'c0ffee1' },
      (out) => out.includes('"msg":"listening"'),
    );
    expect(code).toBe(0);
    const lines = jsonLines(stdout); // throws on any line that is not JSON
    const version = (
      JSON.parse(
        fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
      ) as { version: string }
    ).version;
    for (const msg of ['starting', 'listening']) {
      expect(lines.find((l) => l.msg === msg)).toMatchObject({ version, commit: 'c0ffee1' });
    }
    expect(lines.filter((l) => l.msg === 'shutting down')).toMatchObject([{ signal: 'SIGTERM' }]);
  }, 40_000);
});
