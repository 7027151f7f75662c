// The CSV export's defence against formula injection (issue 25, finding 5; OWASP, "CSV
// Injection"): a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@`, and some read a
// leading tab or carriage return the same way, so such a cell is written with a single quote in
// front, as papaparse's `escapeFormulae` and other CSV libraries do. [Note: csv formula escape]
//
// [Note: csv formula escape]
// Our importer undoes exactly that quote in a CSV this app wrote (Bitwarden CSV with our
// `sealvault` column), so export then import gives back the same values. To keep the escape
// reversible, a value that already starts with quotes before one of those characters ("'=x")
// gets one more; undoing removes one quote from any value that starts with quotes followed by one
// of them, and touches nothing else ("'plain" stays as it is). A CSV written by another manager
// is read as it is: its leading quotes are the user's data.

const RISKY = /^'*[=+\-@\t\r]/;
const ESCAPED = /^'+[=+\-@\t\r]/;

/** A cell value as our CSV export writes it: with a leading quote when a spreadsheet could run it. */
export const escapeFormula = (value: string): string => (RISKY.test(value) ? `'${value}` : value);

/** The value escapeFormula was given, from what it wrote. */
export const unescapeFormula = (cell: string): string =>
  ESCAPED.test(cell) ? cell.slice(1) : cell;
