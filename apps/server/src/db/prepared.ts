// [Note: prepared queries] The API's most frequent queries (the session check of every request,
// a user's vault list, one vault by id, a new secret's insert) are built with Kysely's query
// builder once per database rather than once per request (issue 31, the API's CPU). Building and
// compiling a query cost about a sixth of a request's CPU in the server's profile: the builder's
// immutable nodes, the compiler's walk over them and the identifiers' escaping, the same work for
// the same SQL every time. `prepared` compiles the query with a marker in place of each argument,
// keeps the SQL and the marker's places, and runs it afterwards with the arguments put in those
// places; the SQLite driver then finds its statement by the same text (database.ts).
// Only for queries whose SQL does not depend on the arguments' values: a value that changes the
// query's shape (a list for `in`, a column picked by an argument) cannot be prepared this way,
// and an argument missing from the compiled parameters is a programming error, thrown at the
// first run.
import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

/** Marks an argument's place while the query compiles; never sent to a database. */
const MARKER = '\u0000sealvault-prepared-argument:';

interface Template {
  compiled: CompiledQuery;
  /** For each parameter of the compiled query, the argument's name, or null for a constant. */
  slots: (string | null)[];
}

/**
 * A query built once per database dialect (a Kysely instance and its transactions share it) and
 * run with `args` in its parameters' places: resolves to its rows, as `execute()` would.
 */
export function prepared<A extends object, R>(
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
): (db: Q, args: A) => Promise<R[]> {
  const templates = new WeakMap<object, Template>();
  const templateFor = (db: Q, args: A): Template => {
    const key = db.getExecutor().adapter;
    const kept = templates.get(key);
    if (kept) return kept;
    const names = Object.keys(args);
    const markers = Object.fromEntries(names.map((n) => [n, MARKER + n])) as A;
    const compiled = build(db, markers).compile();
    const slots = compiled.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARKER) ? p.slice(MARKER.length) : null,
    );
    const missing = names.filter((n) => !slots.includes(n));
    if (missing.length || compiled.sql.includes(MARKER)) {
      throw new Error(`prepared: not a parameter of the query: ${missing.join(', ')}`);
    }
    const template = { compiled, slots };
    templates.set(key, template);
    return template;
  };
  return async (db, args) => {
    const { compiled, slots } = templateFor(db, args);
    const parameters = slots.map((name, i) =>
      name === null ? compiled.parameters[i] : (args as Record<string, unknown>)[name],
    );
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
