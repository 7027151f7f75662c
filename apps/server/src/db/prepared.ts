// [Note: prepared queries] The API's most frequent queries (the session check of every request,
// a user's vault list and its counts, one vault by id, a new secret's insert) are built with
// Kysely's query builder once per database rather than once per request (issue 31, the API's
// CPU). Building and compiling a query cost about a sixth of a request's CPU in the server's
// profile: the builder's immutable nodes, the compiler's walk over them and the identifiers'
// escaping, the same work for the same SQL every time. `prepared` compiles the query with a
// marker in place of each argument, keeps the SQL and the markers' places, and runs it afterwards
// with the arguments put in those places; the SQLite driver then finds its statement by the same
// text (database.ts). An argument that is a list (for `in`) gets one marker per element, and the
// query is built once per length of the list; an empty list is the caller's to avoid, as for
// the built query (`in ()` is not SQL).
// Only for queries whose SQL depends on nothing but the arguments' places: a value that changes
// the query's shape (a column picked by an argument, a condition added when it is set) cannot be
// prepared this way, and an argument missing from the compiled parameters is a programming
// error, thrown at the first run.
import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Q = Kysely<Database> | Transaction<Database>;

/** Marks an argument's place while the query compiles; never sent to a database. */
const MARKER = '\u0000sealvault-prepared-argument:';
/** Separates a list argument's name from the element's index in its marker. */
const ELEMENT = '\u0001';

interface Template {
  compiled: CompiledQuery;
  /**
   * For each parameter of the compiled query: the argument's name (and the element's index for
   * a list), or null for a constant of the query's own.
   */
  slots: ({ name: string; index: number | null } | null)[];
}

/** Lists longer than this are built at each run, so that the templates kept stay few. */
export const KEPT_LIST_LENGTH = 32;

/**
 * The arguments' names, and the lengths of those that are lists: one template per shape; null
 * when a list is too long to keep its template.
 */
function shapeOf(args: Record<string, unknown>): string | null {
  let shape = '';
  for (const name in args) {
    const value = args[name];
    if (!Array.isArray(value)) shape += `${name},`;
    else if (value.length > KEPT_LIST_LENGTH) return null;
    else shape += `${name}[${value.length}],`;
  }
  return shape;
}

function compile<A extends object>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, args: A) => Compilable<unknown>,
  args: Record<string, unknown>,
): Template {
  const names = Object.keys(args);
  const markers = Object.fromEntries(
    names.map((n) => {
      const value = args[n];
      return [
        n,
        Array.isArray(value) ? value.map((_, i) => `${MARKER}${n}${ELEMENT}${i}`) : MARKER + n,
      ];
    }),
  ) as A;
  const compiled = build(db, markers).compile();
  const slots = compiled.parameters.map((p) => {
    if (typeof p !== 'string' || !p.startsWith(MARKER)) return null;
    const [name = '', index] = p.slice(MARKER.length).split(ELEMENT);
    return { name, index: index === undefined ? null : Number(index) };
  });
  const missing = names.filter((n) => !slots.some((s) => s?.name === n));
  if (missing.length || compiled.sql.includes(MARKER)) {
    throw new Error(`prepared: not a parameter of the query: ${missing.join(', ')}`);
  }
  return { compiled, slots };
}

/**
 * A query built once per database dialect (a Kysely instance and its transactions share it) and
 * shape of its arguments, run with `args` in its parameters' places: resolves to its rows, as
 * `execute()` would.
 */
export function prepared<A extends object, R>(
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
): (db: Q, args: A) => Promise<R[]> {
  const templates = new WeakMap<object, Map<string, Template>>();
  return async (db, args) => {
    const values = args as Record<string, unknown>;
    const adapter = db.getExecutor().adapter;
    let byShape = templates.get(adapter);
    if (!byShape) templates.set(adapter, (byShape = new Map<string, Template>()));
    const shape = shapeOf(values);
    let template = shape === null ? undefined : byShape.get(shape);
    if (!template) {
      template = compile(db, build, values);
      if (shape !== null) byShape.set(shape, template);
    }
    const { compiled, slots } = template;
    const parameters = slots.map((slot, i) => {
      if (slot === null) return compiled.parameters[i];
      const value = values[slot.name];
      return slot.index === null ? value : (value as unknown[])[slot.index];
    });
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
