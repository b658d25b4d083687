// What a decay CLI prints on standard output for a fault when `--json` was asked: one object a
// machine reads in place of a verdict. The sentence in it is the one standard error carries.

/** A fault as a `--json` caller reads it: its stable code and the sentence naming the input. */
export interface JsonFaultBody {
  readonly code: string;
  readonly message: string;
  /**
   * Optional: the code of the fault underneath, when `code` names a family of them (`decay`'s
   * `exec`: the run's own fault, such as `dirty-tree`), so a caller can act on it without
   * reading the sentence. Written only when given.
   */
  readonly cause?: string;
}

/**
 * Whether a command line asks for JSON: `--json` among the words before `--` (after it, a word is
 * an argument). Read from the raw words, so a command line the parser refuses still gets its fault
 * as JSON (`decay preflight --json --nope p.md`).
 */
export function jsonAsked(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/** The fault object, one line: `$schema` (the `$id` of the schema it follows), `version` 1, then `fault`. */
export function jsonFaultLine(schemaId: string, fault: JsonFaultBody): string {
  const body = fault.cause === undefined ? { code: fault.code, message: fault.message } : { code: fault.code, message: fault.message, cause: fault.cause };
  return `${JSON.stringify({ $schema: schemaId, version: 1, fault: body })}\n`;
}
