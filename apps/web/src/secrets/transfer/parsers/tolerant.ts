// Zod pieces for reading other products' JSON as tolerantly as those products do (issue 32):
// [Note: tolerant bitwarden json] in bitwarden-json.ts gives the rule.
import { z } from 'zod';

/** A string, or a number or boolean read as its text; null and absent stay so. */
export const text = z
  .union([z.string(), z.number(), z.boolean()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? v : String(v)));

/** A list whose null elements are dropped; null or absent stays so. */
export const list = <T extends z.ZodType>(element: T) =>
  z
    .array(element.nullable())
    .nullish()
    .transform((a) => a?.filter((e): e is NonNullable<z.output<T>> => e !== null));
