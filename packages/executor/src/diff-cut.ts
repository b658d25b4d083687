// A patch kept within a byte bound as it streams in: whole files (each `diff --git` section) are
// kept in order while they fit, a file that does not fit is left out whole and named, and the full
// size is counted. Nothing past the bound is held, whatever the patch's size.
import { concatBytes, decodeStrictUtf8 } from "@decay/portable";
import type { DiffTruncated } from "./agent/protocol.js";

/** A patch cut to a bound: the text kept, and what was left out (null when nothing was). */
export interface BoundedDiff {
  readonly text: string;
  readonly truncated: DiffTruncated | null;
}

/** Feeds a patch in chunks; `end` gives what was kept. */
export interface DiffCutter {
  push(chunk: Uint8Array): void;
  end(): BoundedDiff;
}

const HEAD = new TextEncoder().encode("diff --git ");
/** Files left out that `files_left_out` names; the rest are only counted (`files_not_listed`). */
export const MOST_LISTED = 1000;

const HEADER_LINE_MAX = 16384;

/** One file's section of the patch while it streams in. */
interface Section {
  file: boolean;
  bytes: number;
  pieces: Uint8Array[] | null;
  header: number[];
  headerDone: boolean;
}

const fresh = (file: boolean): Section => ({ file, bytes: 0, pieces: [], header: [], headerDone: false });

/**
 * A cutter keeping at most `maxBytes` bytes of a patch, cut only between files: a file's section
 * that fits in what is left is kept whole, one that does not is left out and named with its size
 * (`pathOf` reads its path from its `diff --git` line). Bytes before the first file are a section
 * with no path.
 */
export function diffCutter(maxBytes: number, pathOf: (headerLine: Uint8Array) => string): DiffCutter {
  // Each kept section decoded once, when it closes: checked and kept in one step.
  const kept: string[] = [];
  const left: { path: string; bytes: number }[] = [];
  let notListed = 0;
  let keptBytes = 0;
  let full = 0;
  let cur = fresh(false);
  let matched = 0; // bytes of HEAD matched at the current line start; -1 when not at one
  let carried = 0; // of those, how many came in earlier chunks (not yet given to a section)

  const add = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    full += bytes.length;
    cur.bytes += bytes.length;
    if (!cur.headerDone) {
      const nl = bytes.indexOf(10);
      const upTo = nl < 0 ? bytes.length : nl;
      for (let i = 0; i < upTo && cur.header.length < HEADER_LINE_MAX; i += 1) cur.header.push(bytes[i] as number);
      cur.headerDone = nl >= 0;
    }
    // A copy: a chunk is often a view of a larger buffer, which keeping the view would keep whole.
    if (cur.pieces !== null && keptBytes + cur.bytes <= maxBytes) cur.pieces.push(new Uint8Array(bytes));
    else cur.pieces = null;
  };
  const close = () => {
    if (cur.bytes === 0) return;
    // A section that is not UTF-8 is left out too: decoded, its bytes would grow past the bound.
    const text = cur.pieces === null ? undefined : decodeStrictUtf8(concatBytes(cur.pieces, cur.bytes)).unwrapOr(undefined);
    if (text !== undefined) {
      kept.push(text);
      keptBytes += cur.bytes;
    } else if (left.length < MOST_LISTED) left.push({ path: cur.file ? pathOf(Uint8Array.from(cur.header)) : "", bytes: cur.bytes });
    else notListed += 1;
    cur = fresh(true);
  };

  return {
    push(c) {
      let from = 0;
      let i = 0;
      while (i < c.length) {
        if (matched >= 0) {
          while (i < c.length && matched < HEAD.length && c[i] === HEAD[matched]) {
            i += 1;
            matched += 1;
          }
          if (matched === HEAD.length) {
            add(c.subarray(from, i - (matched - carried)));
            close();
            cur.file = true;
            add(HEAD);
            from = i;
            matched = -1;
            carried = 0;
          } else if (i < c.length) {
            add(HEAD.subarray(0, carried));
            matched = -1;
            carried = 0;
          }
          continue;
        }
        const nl = c.indexOf(10, i);
        if (nl < 0) i = c.length;
        else {
          i = nl + 1;
          matched = 0;
        }
      }
      if (matched > 0) {
        add(c.subarray(from, c.length - (matched - carried)));
        carried = matched;
      } else add(c.subarray(from));
    },
    end() {
      if (carried > 0) add(HEAD.subarray(0, carried));
      carried = 0;
      matched = -1;
      close();
      const text = kept.join("");
      if (left.length === 0) return { text, truncated: null };
      return { text, truncated: { max_bytes: maxBytes, full_bytes: full, kept_bytes: keptBytes, files_left_out: left, files_not_listed: notListed } };
    },
  };
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** A C-quoted name as git writes one (`"a/x\\ty\\303\\251"`) from `at` (its opening quote): its bytes. */
function unquote(line: Uint8Array, at: number): number[] {
  const bytes: number[] = [];
  let i = at + 1;
  while (i < line.length && line[i] !== 34) {
    const b = line[i] as number;
    if (b !== 92) {
      bytes.push(b);
      i += 1;
      continue;
    }
    const next = String.fromCharCode(line[i + 1] ?? 0);
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(String.fromCharCode(...line.subarray(i + 1, i + 4)), 8) & 0xff);
      i += 4;
    } else {
      bytes.push(ESCAPES[next] ?? (line[i + 1] as number));
      i += 2;
    }
  }
  return bytes;
}

/**
 * The path a `diff --git a/<path> b/<path>` line names (the patch is made with `--no-renames`, so
 * both sides are one path), C-quoted or not, without its `a/` prefix. A line of another shape is
 * given back as it is after `diff --git `.
 */
export function diffHeaderPath(line: Uint8Array): string {
  const decode = (b: ArrayLike<number>) => new TextDecoder().decode(Uint8Array.from(b));
  const rest = line.subarray(HEAD.length);
  if (rest[0] === 34) {
    const bytes = unquote(rest, 0);
    return decode(bytes[0] === 97 && bytes[1] === 47 ? bytes.slice(2) : bytes);
  }
  const text = decode(rest);
  const p = (text.length - 5) / 2;
  const same = Number.isInteger(p) && p > 0 && text.startsWith("a/") && text.slice(2 + p, 5 + p) === " b/" && text.slice(2, 2 + p) === text.slice(5 + p);
  return same ? text.slice(2, 2 + p) : text;
}
