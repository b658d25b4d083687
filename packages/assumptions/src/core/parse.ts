import { decodeStrictUtf8, type InvalidUtf8 } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import type { ParseFault } from "./faults.js";
import type { Assumption, AssumptionKind } from "./model.js";
import { isPadded, parsePath } from "./path.js";
import { checkCharacters } from "./rules.js";

const BLANK = /^[ \t]*$/;
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;
const DIGEST = /^[0-9a-fA-F]{64}$/;
const HEX_CAPITAL = /[A-F]/;
const CR = 13;

// How many TAB-separated fields a kind takes (a literal may hold more TABs, refused later), or
// undefined for no kind at all. A switch, not an object: a key cut from the file would have to be
// looked up in V8's string table before every property lookup.
function fieldsOf(kind: string): 2 | 3 | undefined {
  switch (kind) {
    case "exists":
    case "absent":
      return 2;
    case "contains":
    case "lacks":
    case "unchanged":
      return 3;
    default:
      return undefined;
  }
}

function decode(input: string | Uint8Array): Result<string, ParseFault> {
  if (typeof input === "string") return crOnly(input.startsWith("\uFEFF") ? input.slice(1) : input);
  // Where the bytes stop being UTF-8 comes with the refusal, so the bad line is found without a second scan.
  const text = decodeStrictUtf8(input);
  return text.isOk() ? crOnly(text.value) : err({ code: "plan-not-utf8", ...firstBadLine(input, text.error) });
}

// What a line starts with after a CR when the file's lines end in CR alone: a row or a comment.
const ROW_START = /\r(?:#|(?:exists|absent|contains|lacks|unchanged)\t)/;

/**
 * A file whose lines end in CR alone (no LF anywhere, and a row or comment starting right after
 * a CR) is refused as such, instead of being read as one long line. One CR at the very end of a
 * file is read as that line's ending, like CRLF (docs/assumptions-format.md).
 */
function crOnly(text: string): Result<string, ParseFault> {
  if (text.indexOf("\r") === -1 || text.includes("\n") || !ROW_START.test(text)) return ok(text);
  return err({ code: "cr-line-endings", line: 1 });
}

// The line of `bad`, the first sequence that is not UTF-8 (as the decoder that refused the bytes
// found it), and its offending bytes, as hex: from the start of the sequence that cannot be
// completed through the byte that ends it (a line's end is not part of it), at most four.
function firstBadLine(bytes: Uint8Array, bad: InvalidUtf8): { line: number; value: string } {
  let line = 1;
  for (let nl = bytes.indexOf(10); nl !== -1 && nl < bad.start; nl = bytes.indexOf(10, nl + 1)) line += 1;
  const through = bad.end < bytes.length && bytes[bad.end] !== 10 ? bad.end + 1 : bad.end;
  const shown = bytes.subarray(bad.start, Math.min(through, bad.start + 4));
  return { line, value: [...shown].map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ") };
}

function parseLiteral(raw: string, line: number): Result<string, ParseFault> {
  if (/^\s*$/u.test(raw)) return err({ code: "literal-blank", line });
  if (LINE_BREAK.test(raw)) return err({ code: "literal-line-break", line, value: raw });
  if (isPadded(raw)) return err({ code: "literal-padded", line, value: raw });
  return checkCharacters(raw, "literal", line);
}

function fieldCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf("\t"); at !== -1; at = text.indexOf("\t", at + 1)) count += 1;
  return count;
}

// Fields are cut at the TABs in place (no array of fields per row): the kind, the path, and for
// three-field kinds everything after the second TAB.
function parseRow(text: string, line: number): Result<Assumption, ParseFault> {
  const firstTab = text.indexOf("\t");
  const kind = firstTab === -1 ? text : text.slice(0, firstTab);
  const expected = fieldsOf(kind);
  if (expected === undefined) return err({ code: "unknown-kind", line, value: kind });
  const known = kind as AssumptionKind;
  const secondTab = firstTab === -1 ? -1 : text.indexOf("\t", firstTab + 1);
  // Two fields exactly; three exactly for unchanged; three or more for a literal (TABs and all).
  const fits = expected === 2 ? firstTab !== -1 && secondTab === -1 : secondTab !== -1 && (known !== "unchanged" || text.indexOf("\t", secondTab + 1) === -1);
  if (!fits) return err({ code: "field-count", line, kind: known, expected, actual: fieldCount(text) });
  const rawPath = secondTab === -1 ? text.slice(firstTab + 1) : text.slice(firstTab + 1, secondTab);
  const parsed = parsePath(rawPath, line);
  if (parsed.isErr()) return err(parsed.error);
  const { path, directory } = parsed.value;
  if (known === "exists" || known === "absent") return ok({ line, kind: known, path, directory });
  if (directory) return err({ code: "path-directory-for-file", line, kind: known, path: rawPath });
  const third = text.slice(secondTab + 1);
  if (known === "unchanged") {
    if (!DIGEST.test(third)) return err({ code: "bad-digest", line, value: third });
    // toLowerCase copies even a digest already in lower case, as most are.
    return ok({ line, kind: known, path, sha256: HEX_CAPITAL.test(third) ? third.toLowerCase() : third });
  }
  const literal = parseLiteral(third, line);
  return literal.isErr() ? err(literal.error) : ok({ line, kind: known, path, literal: literal.value });
}

function parseLine(text: string, line: number): Result<Assumption | undefined, ParseFault> {
  if (text === "") return ok(undefined);
  const first = text.charCodeAt(0);
  const indented = first === 32 || first === 9;
  if (indented && BLANK.test(text)) return ok(undefined);
  if (first === 35 || (indented && text.replace(/^[ \t]+/, "").startsWith("#"))) {
    return text.includes("\t") ? err({ code: "comment-with-tab", line, value: text }) : ok(undefined);
  }
  return parseRow(text, line);
}

// A field as a row would hold it: anything that is not a string is an empty field, so it is refused.
function field(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * Re-reads an assumption built by a caller (not by `parseAssumptions`) under the same rules, as
 * the one row it stands for: a hand-made `absent src//a.ts`, `../x` or blank literal is refused
 * or folded exactly as in a file, never checked as written.
 */
export function reparseAssumption(a: Assumption): Result<Assumption, ParseFault> {
  // A hand-made row may be anything at run time: one that is no object has no kind.
  if (typeof a !== "object" || a === null) return err({ code: "unknown-kind", value: "" });
  if (a.kind === "exists" || a.kind === "absent") {
    return parseRow(`${field(a.kind)}\t${field(a.path)}${a.directory === true ? "/" : ""}`, a.line);
  }
  const third = a.kind === "unchanged" ? a.sha256 : (a as { readonly literal?: unknown }).literal;
  return parseRow(`${field(a.kind)}\t${field(a.path)}\t${field(third)}`, a.line);
}

/**
 * The most rows one assumptions file may hold. Each row's result is kept until the report is
 * written, and a report is one text: with millions of rows (a 64 MiB file of `exists\ta` holds
 * seven) the process would run out of memory, or past the engine's longest string, instead of
 * refusing. A million rows is ten times the largest plan the benchmarks check.
 */
export const MAX_PLAN_ROWS = 1_000_000;

/**
 * Parses an assumptions file (TSV, one belief per row). Every refusal is a fault naming the line
 * and the offending value; a file with no rows, or with more than `MAX_PLAN_ROWS`, is refused.
 */
export function parseAssumptions(input: string | Uint8Array): Result<Assumption[], ParseFault> {
  return decode(input).andThen((text) => {
    const rows: Assumption[] = [];
    // Line by line in place: no array of every line alive while the rows are built.
    for (let start = 0, line = 1; start <= text.length; line += 1) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const raw = text.slice(start, end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end);
      const parsed = parseLine(raw, line);
      if (parsed.isErr()) return err(parsed.error);
      if (parsed.value) {
        if (rows.length === MAX_PLAN_ROWS) return err({ code: "plan-too-large" as const, line, limit: MAX_PLAN_ROWS });
        rows.push(parsed.value);
      }
      if (newline === -1) break;
      start = newline + 1;
    }
    return rows.length === 0 ? err({ code: "plan-empty" as const }) : ok(rows);
  });
}
