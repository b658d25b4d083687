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
const DRIVE = /^[A-Za-z]:/;

// Whether component `path[from, to)` starts or ends with white space. Printable ASCII other than
// space at both ends cannot be: the Unicode regex runs only for the rest.
function paddedAt(path: string, from: number, to: number): boolean {
  const first = path.charCodeAt(from);
  const last = path.charCodeAt(to - 1);
  if (first > 32 && first < 127 && last > 32 && last < 127) return false;
  return PADDED.test(path.slice(from, to));
}

/** Whether `text` starts or ends with white space (a padded path component or literal). */
export function isPadded(text: string): boolean {
  return text.length > 0 && paddedAt(text, 0, text.length);
}

// Rule 5 on an NFC path, in one pass over its code units and one over its components, without
// splitting: a path with no empty or `.` component and no trailing `/` is its own folded form.
function fold(raw: string, path: string, line: number | undefined): Result<PlanPath, ParseFault> {
  // A backslash anywhere outranks a line separator; a line separator anywhere (as in a literal:
  // a name nobody can see is never checked) outranks every rule after it.
  let separator = 0;
  for (let i = 0; i < path.length; i += 1) {
    const unit = path.charCodeAt(i);
    if (unit === 0x5c) return err({ code: "path-backslash", line, path: raw });
    if ((unit === 0x2028 || unit === 0x2029) && separator === 0) separator = unit;
  }
  if (separator !== 0) return err({ code: "path-line-break", line, path: raw, codePoint: separator });
  if (path.charCodeAt(0) === 0x2f) return err({ code: "path-absolute", line, path: raw });
  if (DRIVE.test(path)) return err({ code: "path-drive-letter", line, path: raw });
  let kept = 0;
  let tidy = true;
  for (let from = 0; from <= path.length; ) {
    let to = path.indexOf("/", from);
    if (to === -1) to = path.length;
    const size = to - from;
    if (size === 0 || (size === 1 && path.charCodeAt(from) === 0x2e)) tidy = false;
    else if (size === 2 && path.charCodeAt(from) === 0x2e && path.charCodeAt(from + 1) === 0x2e) return err({ code: "path-dotdot", line, path: raw });
    else if (paddedAt(path, from, to)) return err({ code: "path-padded-component", line, path: raw, component: path.slice(from, to) });
    else kept += 1;
    from = to + 1;
  }
  if (kept === 0) return err({ code: "path-is-root", line, path: raw });
  const folded = tidy
    ? path
    : path
        .split("/")
        .filter((part) => part !== "" && part !== ".")
        .join("/");
  return ok({ path: folded, directory: path.endsWith("/") });
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
