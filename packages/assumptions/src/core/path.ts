import { err, ok, type Result } from "neverthrow";
import type { ParseFault } from "./faults.js";
import { checkCharacters } from "./rules.js";

/** A path as the plan wrote it, folded: its components and whether it named a directory. */
export interface PlanPath {
  /** Components joined by `/`, NFC, without `.`/empty components or a trailing `/`. */
  readonly path: string;
  /** True when the plan wrote a trailing `/`. */
  readonly directory: boolean;
}

const PADDED = /^\s|\s$/u;

// Printable ASCII other than space at both ends cannot be whitespace: skip the Unicode regex.
function padded(part: string): boolean {
  const first = part.charCodeAt(0);
  const last = part.charCodeAt(part.length - 1);
  if (first > 32 && first < 127 && last > 32 && last < 127) return false;
  return PADDED.test(part);
}

const LINE_SEPARATORS = /[\u2028\u2029]/;

function fold(raw: string, path: string, line: number | undefined): Result<PlanPath, ParseFault> {
  if (path.includes("\\")) return err({ code: "path-backslash", line, path: raw });
  // Anywhere in a path, as in a literal: a name nobody can see is never checked.
  const separator = LINE_SEPARATORS.exec(path);
  if (separator !== null) return err({ code: "path-line-break", line, path: raw, codePoint: separator[0].charCodeAt(0) });
  if (path.startsWith("/")) return err({ code: "path-absolute", line, path: raw });
  if (/^[A-Za-z]:/.test(path)) return err({ code: "path-drive-letter", line, path: raw });
  const components: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return err({ code: "path-dotdot", line, path: raw });
    if (padded(part)) return err({ code: "path-padded-component", line, path: raw, component: part });
    components.push(part);
  }
  if (components.length === 0) return err({ code: "path-is-root", line, path: raw });
  return ok({ path: components.join("/"), directory: path.endsWith("/") });
}

// A path already in its folded form: printable ASCII components with no space, `/` or `\`,
// none of them `.` or `..`, joined by single `/`s, no drive letter. Most plan paths are; each
// rule above then holds by construction, so the path is its own folded form.
const PLAIN = /^(?![A-Za-z]:)(?!\.\.?(?:\/|$))[!-.0-[\]-~]+(?:\/(?!\.\.?(?:\/|$))[!-.0-[\]-~]+)*$/;

/**
 * Validates and folds one path (rule 5 and rule 6): relative, no backslash, no drive letter,
 * no `..`, no padded component, not the root; `.` and empty components folded away.
 */
export function parsePath(raw: string, line?: number): Result<PlanPath, ParseFault> {
  if (PLAIN.test(raw)) return ok({ path: raw, directory: false });
  return parseAnyPath(raw, line);
}

/** `parsePath` without the plain-path shortcut: every rule applied in turn (tests compare the two). */
export function parseAnyPath(raw: string, line?: number): Result<PlanPath, ParseFault> {
  if (raw === "") return err({ code: "path-empty", line });
  const checked = checkCharacters(raw, "path", line);
  return checked.isErr() ? err(checked.error) : fold(raw, checked.value, line);
}
