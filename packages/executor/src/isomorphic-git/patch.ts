// One file's change as `git diff` prints it (headers, hunks of three lines of context) and as
// `git diff --numstat` counts it. Runtime-neutral: bytes in, bytes out, as git's own.
import { concatBytes } from "@decay/portable";
import { diffSequences, type Change } from "./line-diff.js";

/** One side of a file's change: its mode, object id and bytes. */
export interface FileSide {
  readonly mode: string;
  readonly oid: string;
  readonly bytes: Uint8Array;
}

/** A file's change counted: null lines for a binary file. */
export interface FileCount {
  readonly path: string;
  readonly lines: { readonly insertions: number; readonly deletions: number } | null;
}

const CONTEXT = 3;
const FUNC_BYTES = 80;
const ZERO = "0000000";
const encoder = new TextEncoder();
const NO_NEWLINE = encoder.encode("\n\\ No newline at end of file\n");
const NEWLINE = encoder.encode("\n");
const SPACE = encoder.encode(" ");
const CONTEXT_MARK = SPACE;
const DELETED = encoder.encode("-");
const INSERTED = encoder.encode("+");
/** What git strips from the end of a hunk's function line (its own `isspace`): space, tab, LF, CR; never VT or FF. */
const BLANKS = [0x20, 0x09, 0x0a, 0x0d];

/** git's binary test: a NUL byte in the first 8000. */
const isBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);

/** A file's lines, each with its newline if it has one. */
function linesOf(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, start)) {
    lines.push(bytes.subarray(start, i + 1));
    start = i + 1;
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** A line as a string that is equal exactly when the bytes are (one char per byte). */
function keyOf(line: Uint8Array): string {
  let s = "";
  for (let i = 0; i < line.length; i += 8192) s += String.fromCharCode(...line.subarray(i, i + 8192));
  return s;
}

/** What a type change (a file become a link, a link a gitlink) is: a deletion and an addition. */
const kind = (mode: string) => (mode.startsWith("100") ? "file" : mode);

/** The sides of a change as git prints them: a type change splits in two. */
export function splitTypeChange(before: FileSide | undefined, after: FileSide | undefined): [FileSide | undefined, FileSide | undefined][] {
  if (before !== undefined && after !== undefined && kind(before.mode) !== kind(after.mode)) {
    return [
      [before, undefined],
      [undefined, after],
    ];
  }
  return [[before, after]];
}

interface Compared {
  readonly binary: boolean;
  readonly older: Uint8Array[];
  readonly newer: Uint8Array[];
  readonly changes: Change[];
}

function compareSides(before: FileSide | undefined, after: FileSide | undefined): Compared {
  const a = before?.bytes ?? new Uint8Array();
  const b = after?.bytes ?? new Uint8Array();
  if (isBinary(a) || isBinary(b)) return { binary: true, older: [], newer: [], changes: [] };
  const older = linesOf(a);
  const newer = linesOf(b);
  return { binary: false, older, newer, changes: diffSequences(older.map(keyOf), newer.map(keyOf)) };
}

/** The count of one side pair (not a type change: split it first). */
export function countFile(path: string, before: FileSide | undefined, after: FileSide | undefined): FileCount {
  const c = compareSides(before, after);
  if (c.binary) return { path, lines: null };
  let insertions = 0;
  let deletions = 0;
  for (const ch of c.changes) {
    insertions += ch.ins;
    deletions += ch.del;
  }
  return { path, lines: { insertions, deletions } };
}

const ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  '"': '\\"',
  "\\": "\\\\",
};

/** A name as git prints it with `core.quotepath` off: in C quotes when it holds a control character, `"` or `\`. */
export function quoteName(name: string): string {
  if (!/[\x00-\x1f\x7f"\\]/.test(name)) return name;
  const body = name.replace(/[\x00-\x1f\x7f"\\]/g, (ch) => ESCAPES[ch] ?? `\\${ch.charCodeAt(0).toString(8).padStart(3, "0")}`);
  return `"${body}"`;
}

const short = (oid: string) => oid.slice(0, 7);

/**
 * The patch of one side pair (not a type change: split it first), from `diff --git` on, as bytes:
 * a file's lines go out as the file holds them, so a patch that is not UTF-8 stays so.
 */
export function patchFile(path: string, before: FileSide | undefined, after: FileSide | undefined): Uint8Array {
  const a = quoteName(`a/${path}`);
  const b = quoteName(`b/${path}`);
  const out = [`diff --git ${a} ${b}`];
  if (before === undefined && after !== undefined) out.push(`new file mode ${after.mode}`, `index ${ZERO}..${short(after.oid)}`);
  else if (after === undefined && before !== undefined) out.push(`deleted file mode ${before.mode}`, `index ${short(before.oid)}..${ZERO}`);
  else if (before !== undefined && after !== undefined) {
    if (before.mode !== after.mode) out.push(`old mode ${before.mode}`, `new mode ${after.mode}`);
    if (before.oid !== after.oid) out.push(`index ${short(before.oid)}..${short(after.oid)}${before.mode === after.mode ? ` ${after.mode}` : ""}`);
  }
  const c = compareSides(before, after);
  const from = before === undefined ? "/dev/null" : a;
  const to = after === undefined ? "/dev/null" : b;
  if (c.binary) out.push(`Binary files ${from} and ${to} differ`);
  if (c.binary || c.changes.length === 0) return encoder.encode(`${out.join("\n")}\n`);
  // git ends the names with a tab when the path holds a space, so that they can be told from a date.
  const tab = path.includes(" ") ? "\t" : "";
  out.push(`--- ${from}${tab}`, `+++ ${to}${tab}`);
  const pieces = [encoder.encode(`${out.join("\n")}\n`), ...hunks(c)];
  return concatBytes(
    pieces,
    pieces.reduce((n, p) => n + p.length, 0),
  );
}

/**
 * The length of the longest start of `bytes` that git takes as UTF-8 (its `pick_one_utf8_char`):
 * it stops at a malformed or cut sequence, an overlong form, a surrogate, a code point past
 * U+10FFFF, and U+FFFE or U+FFFF.
 */
function gitUtf8Prefix(bytes: Uint8Array): number {
  const cont = (i: number) => ((bytes[i] ?? 0) & 0xc0) === 0x80;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const b1 = bytes[i + 1] ?? 0;
    let width = 0;
    if (b < 0x80) width = 1;
    else if (b >= 0xc2 && b < 0xe0 && cont(i + 1)) width = 2;
    else if (b >= 0xe0 && b < 0xf0 && cont(i + 1) && cont(i + 2)) {
      const overlong = b === 0xe0 && b1 < 0xa0;
      const surrogate = b === 0xed && b1 >= 0xa0;
      const nonChar = b === 0xef && b1 === 0xbf && ((bytes[i + 2] as number) & 0xfe) === 0xbe;
      width = overlong || surrogate || nonChar ? 0 : 3;
    } else if (b >= 0xf0 && b <= 0xf4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
      width = (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f) ? 0 : 4;
    }
    if (width === 0) return i;
    i += width;
  }
  return i;
}

/**
 * The line before a hunk that names where it is, as git writes it: the nearest above that starts
 * with a letter, `_` or `$`; its first 80 bytes without trailing blanks; then only as much of that
 * as is UTF-8 (a character cut at byte 80, or a byte of another encoding, ends it).
 */
function funcLine(older: readonly Uint8Array[], before: number): Uint8Array {
  for (let i = before - 1; i >= 0; i -= 1) {
    const first = older[i]?.[0] ?? 0;
    const isAlpha = (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a;
    if (isAlpha || first === 0x5f || first === 0x24) {
      let line = (older[i] as Uint8Array).subarray(0, FUNC_BYTES);
      let end = line.length;
      while (end > 0 && BLANKS.includes(line[end - 1] as number)) end -= 1;
      line = line.subarray(0, end);
      line = line.subarray(0, gitUtf8Prefix(line));
      return concatBytes([SPACE, line], line.length + 1);
    }
  }
  return new Uint8Array();
}

const range = (start: number, count: number) => `${count === 0 ? start : start + 1}${count === 1 ? "" : `,${count}`}`;

/** The hunks of a text change, line by line: changes whose gap is at most twice the context share a hunk. */
function hunks(c: Compared): Uint8Array[] {
  const out: Uint8Array[] = [];
  const emit = (prefix: Uint8Array, line: Uint8Array) => {
    out.push(prefix, line);
    if (line[line.length - 1] !== 10) out.push(NO_NEWLINE);
  };
  for (let first = 0; first < c.changes.length; ) {
    let last = first;
    while (last + 1 < c.changes.length) {
      const here = c.changes[last] as Change;
      if ((c.changes[last + 1] as Change).a - (here.a + here.del) > 2 * CONTEXT) break;
      last += 1;
    }
    const head = c.changes[first] as Change;
    const tail = c.changes[last] as Change;
    const a0 = Math.max(0, head.a - CONTEXT);
    const a1 = Math.min(c.older.length, tail.a + tail.del + CONTEXT);
    const b0 = head.b - (head.a - a0);
    const b1 = tail.b + tail.ins + (a1 - tail.a - tail.del);
    out.push(encoder.encode(`@@ -${range(a0, a1 - a0)} +${range(b0, b1 - b0)} @@`), funcLine(c.older, a0), NEWLINE);
    let i = a0;
    for (const ch of c.changes.slice(first, last + 1)) {
      for (; i < ch.a; i += 1) emit(CONTEXT_MARK, c.older[i] as Uint8Array);
      for (let k = 0; k < ch.del; k += 1) emit(DELETED, c.older[ch.a + k] as Uint8Array);
      for (let k = 0; k < ch.ins; k += 1) emit(INSERTED, c.newer[ch.b + k] as Uint8Array);
      i = ch.a + ch.del;
    }
    for (; i < a1; i += 1) emit(CONTEXT_MARK, c.older[i] as Uint8Array);
    first = last + 1;
  }
  return out;
}
