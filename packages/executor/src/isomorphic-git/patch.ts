// One file's change as `git diff` prints it (headers, hunks of three lines of context) and as
// `git diff --numstat` counts it. Runtime-neutral: bytes in, text out.
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
const utf8 = new TextDecoder();

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

/** The patch of one side pair (not a type change: split it first), from `diff --git` on. */
export function patchFile(path: string, before: FileSide | undefined, after: FileSide | undefined): string {
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
  else if (c.changes.length > 0) {
    // git ends the names with a tab when the path holds a space, so that they can be told from a date.
    const tab = path.includes(" ") ? "\t" : "";
    out.push(`--- ${from}${tab}`, `+++ ${to}${tab}`);
    // One line at a time: spreading a file's lines as arguments overflows the stack past ~125k.
    for (const line of hunks(c)) out.push(line);
  }
  return `${out.join("\n")}\n`;
}

/** The line before a hunk that names where it is: the nearest above that starts with a letter, `_` or `$`. */
function funcLine(older: readonly Uint8Array[], before: number): string {
  for (let i = before - 1; i >= 0; i -= 1) {
    const first = older[i]?.[0] ?? 0;
    const isAlpha = (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a;
    if (isAlpha || first === 0x5f || first === 0x24) {
      return ` ${utf8.decode((older[i] as Uint8Array).subarray(0, FUNC_BYTES)).replace(/[ \t\n\v\f\r]+$/, "")}`;
    }
  }
  return "";
}

const range = (start: number, count: number) => `${count === 0 ? start : start + 1}${count === 1 ? "" : `,${count}`}`;

/** The hunks of a text change: changes whose gap is at most twice the context share a hunk. */
function hunks(c: Compared): string[] {
  const out: string[] = [];
  const emit = (prefix: string, line: Uint8Array) => {
    const text = utf8.decode(line);
    out.push(text.endsWith("\n") ? `${prefix}${text.slice(0, -1)}` : `${prefix}${text}\n\\ No newline at end of file`);
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
    out.push(`@@ -${range(a0, a1 - a0)} +${range(b0, b1 - b0)} @@${funcLine(c.older, a0)}`);
    let i = a0;
    for (const ch of c.changes.slice(first, last + 1)) {
      for (; i < ch.a; i += 1) emit(" ", c.older[i] as Uint8Array);
      for (let k = 0; k < ch.del; k += 1) emit("-", c.older[ch.a + k] as Uint8Array);
      for (let k = 0; k < ch.ins; k += 1) emit("+", c.newer[ch.b + k] as Uint8Array);
      i = ch.a + ch.del;
    }
    for (; i < a1; i += 1) emit(" ", c.older[i] as Uint8Array);
    first = last + 1;
  }
  return out;
}
