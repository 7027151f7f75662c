// [Note: schema-free modules] (index.ts): the modules the web app's start-up code imports must
// not build a zod schema, directly or through a module they import for its values.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

const SCHEMA_FREE = ['messages.ts', 'planRules.ts', 'apiError.ts'];

/** The modules `file` imports for their values (an `import type` brings no code). */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(path.join(import.meta.dirname, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+'([^']+)'/gms)].map(
    (m) => m[1]!,
  );
}

describe('schema-free modules', () => {
  it.each(SCHEMA_FREE)('%s imports no zod and only schema-free modules', (file) => {
    for (const spec of valueImports(file)) {
      expect(spec, `${file} imports ${spec}`).toMatch(/^\.\//);
      expect(SCHEMA_FREE, `${file} imports ${spec}`).toContain(spec.slice(2));
    }
  });

  it('finds a value import where there is one', () => {
    expect(valueImports('client.ts')).toContain('zod');
    expect(valueImports('planRules.ts')).toEqual([]);
  });

  it('each is a package subpath', () => {
    const targets = Object.values(pkg.exports);
    for (const file of SCHEMA_FREE) expect(targets).toContain(`./src/${file}`);
  });
});
