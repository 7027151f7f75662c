// LANDING_CONFIG: the JSON file that sets the landing page's claims (issue 19; the schema and the
// spec's defaults are the protocol's landing.ts). Read once at start-up by config.ts; a file that
// cannot be read, is not JSON or does not match the schema stops the server with a message that
// names the variable and the file.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  LANDING_DEFAULTS,
  landingConfigFileSchema,
  type LandingContent,
} from '@sealvault/protocol';

export const landingEnv = {
  /** Path of the JSON file with the landing page's statistics and testimonials. */
  LANDING_CONFIG: z.string().min(1).optional(),
};

/** The landing content: the file's keys over the spec's defaults. Throws Error with the reason. */
export function landingConfigFrom(file: string | undefined): LandingContent {
  if (!file) return LANDING_DEFAULTS;
  const where = `LANDING_CONFIG (${path.resolve(file)})`;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`${where} cannot be read: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = landingConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
      .join('; ');
    throw new Error(`${where}: ${detail}`);
  }
  return { ...LANDING_DEFAULTS, ...parsed.data };
}
