import { err, ok, type Result } from "neverthrow";
import type { ParseFault } from "./faults.js";
import { checkCharacters } from "./rules.js";

/** A path as the plan wrote it, folded: its components and whether it named a directory. */
export interface PlanPath {
  /** Components joined by `/`, NFC, without `.`/empty components or a trailing `/`. */
  readonly path: string;
  /** True when the plan wrote a trailing `/` or a last component `.` (`src/.` names a directory, as `src/` does). */
  readonly directory: boolean;
}

/**
 * The most components a plan path may have once folded: 2^25, so every path of a plan within the
 * default 64 MiB input bound is accepted. The check keeps a few numbers per level of a path, and
 * the engine's arrays stop near 2^27 elements (a plan raised to 256 MiB could name 2^27 levels):
 * past this bound a path is refused (`path-too-deep`), never a crash. No tree is that deep.
 */
export const MAX_PATH_COMPONENTS = 2 ** 25;

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
// splitting: a path with no empty or `.` component is its own folded form. A last component
// that is empty or `.` (`src/`, `src/.`) names a directory.
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
  let directory = false;
  for (let from = 0; from <= path.length; ) {
    let to = path.indexOf("/", from);
    if (to === -1) to = path.length;
    const size = to - from;
    directory = foldedAway(path, from, to);
    if (directory) tidy = false;
    else if (size === 2 && path.charCodeAt(from) === 0x2e && path.charCodeAt(from + 1) === 0x2e) return err({ code: "path-dotdot", line, path: raw });
    else if (paddedAt(path, from, to)) return err({ code: "path-padded-component", line, path: raw, component: path.slice(from, to) });
    else kept += 1;
    from = to + 1;
  }
  if (kept === 0) return err({ code: "path-is-root", line, path: raw });
  if (kept > MAX_PATH_COMPONENTS) return err({ code: "path-too-deep", line, path: raw, components: kept, limit: MAX_PATH_COMPONENTS });
  return ok({ path: tidy ? path : tidied(path), directory });
}

// Whether component `path[from, to)` is folded away: empty or `.`.
function foldedAway(path: string, from: number, to: number): boolean {
  return from === to || (to - from === 1 && path.charCodeAt(from) === 0x2e);
}

// `path` without its empty and `.` components. Kept components side by side are one slice of
// `path`, so the pieces joined number at most the kept components: a path of millions of `./`
// never becomes an array of every component.
function tidied(path: string): string {
  const pieces: string[] = [];
  let run = -1;
  let end = 0;
  for (let from = 0; from <= path.length; ) {
    let to = path.indexOf("/", from);
    if (to === -1) to = path.length;
    if (!foldedAway(path, from, to)) {
      if (run === -1) run = from;
      end = to;
    } else if (run !== -1) {
      pieces.push(path.slice(run, end));
      run = -1;
    }
    from = to + 1;
  }
  if (run !== -1) pieces.push(path.slice(run, end));
  return pieces.join("/");
}

// Whether `raw` is already in its folded form: printable ASCII components with no space, `/` or
// `\`, none of them empty, `.` or `..`, joined by single `/`s, no drive letter, not too deep.
// Most plan paths are; each rule above then holds by construction, so the path is its own folded
// form. One pass over the code units, no regular expression: a regex with a repeated group keeps
// a backtrack entry per component, and a path of millions of components overflowed its stack.
function isPlain(raw: string): boolean {
  const n = raw.length;
  if (n > 1 && raw.charCodeAt(1) === 0x3a && isAsciiLetter(raw.charCodeAt(0))) return false;
  let from = 0;
  let count = 1;
  for (let i = 0; i < n; i += 1) {
    const unit = raw.charCodeAt(i);
    if (unit === 0x2f) {
      if (!plainComponent(raw, from, i)) return false;
      from = i + 1;
      count += 1;
    } else if (unit < 0x21 || unit > 0x7e || unit === 0x5c) return false;
  }
  return count <= MAX_PATH_COMPONENTS && plainComponent(raw, from, n);
}

function isAsciiLetter(unit: number): boolean {
  return (unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a;
}

// Whether component `raw[from, to)` (printable ASCII) is neither empty, `.` nor `..`.
function plainComponent(raw: string, from: number, to: number): boolean {
  const size = to - from;
  if (size > 2 || (size > 0 && raw.charCodeAt(from) !== 0x2e)) return true;
  return size === 2 && raw.charCodeAt(from + 1) !== 0x2e;
}

/**
 * Validates and folds one path (rule 5 and rule 6): relative, no backslash, no drive letter,
 * no `..`, no padded component, not the root, at most `MAX_PATH_COMPONENTS` components; `.` and
 * empty components folded away. A trailing `/` or a last component `.` marks a directory belief
 * (`directory: true`). Linear in the path's length, with no recursion: any path within the input
 * bound is answered, never a stack overflow.
 */
export function parsePath(raw: string, line?: number): Result<PlanPath, ParseFault> {
  if (isPlain(raw)) return ok({ path: raw, directory: false });
  return parseAnyPath(raw, line);
}

/** `parsePath` without the plain-path shortcut: every rule applied in turn (tests compare the two). */
export function parseAnyPath(raw: string, line?: number): Result<PlanPath, ParseFault> {
  if (raw === "") return err({ code: "path-empty", line });
  const checked = checkCharacters(raw, "path", line);
  return checked.isErr() ? err(checked.error) : fold(raw, checked.value, line);
}
