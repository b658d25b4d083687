import { err, errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { AssumptionsFault, CheckFault } from "./faults.js";
import { type FileView, judgeEntry, judgeFound, judgeUnfound, openView } from "./judge.js";
import { exactIn, type Found, foundIn, type Located, locateIn } from "./locate.js";
import { createLocator, forgetLocated, type Locator, plainDir } from "./plain.js";
import { parentOf } from "./tree-path.js";
import type { Assumption, Report, ReportRow } from "./model.js";
import { reparseAssumption } from "./parse.js";
import { inFlightOf, inTurn } from "./in-turn.js";
import { maxBytesOption } from "./read.js";
import { TextMap } from "./text-map.js";

/** Options of `checkTree`. */
export interface CheckOptions {
  readonly tree: TreeReader;
  readonly assumptions: readonly Assumption[];
  /**
   * Largest file read, in bytes; larger files are a fault. Default 64 MiB. A positive integer;
   * anything else (`NaN`, `0`, `Infinity`) is an `option-invalid` fault, before the tree is read.
   */
  readonly maxBytes?: number;
}

/**
 * Files are first read with at most this many bytes; one larger waits its turn and is read whole
 * then, one such file at a time, so that `inFlight` files near the size limit are never in memory
 * at once (each with its text, which can be twice its bytes).
 */
const SMALL_READ = 4 * 1024 * 1024;
/** Rows of one directory judged one after another before the next group takes a turn. */
const GROUP_ROWS = 64;

/** Rows that sit in one plan directory (NFC), with their NFC paths; rows of one path together. */
interface Group {
  readonly dir: string;
  readonly rows: number[];
  readonly paths: string[];
}

/**
 * Rows grouped by the directory they sit in, groups in order of first appearance. Every row of one
 * path goes into the group its first row went to, next to it, and is located right after it. A
 * group takes new paths until it holds GROUP_ROWS rows, and fewer in a small plan (rows /
 * `inFlight`), so that even a plan of a few rows all in one directory keeps `inFlight` groups
 * waiting on a slow reader at once. A group's first row is its smallest. Paths are NFC already:
 * the parser made them so.
 */
function groupByDirectory(rows: readonly Assumption[], inFlight: number): Group[] {
  const most = Math.max(1, Math.min(GROUP_ROWS, Math.ceil(rows.length / inFlight)));
  // Each path's rows as a chain: its first row, then next[] from row to row (-1 ends it).
  const firsts: number[] = [];
  const paths: string[] = new Array(rows.length);
  const next = new Int32Array(rows.length).fill(-1);
  const tail = new TextMap<number>();
  for (let i = 0; i < rows.length; i += 1) {
    const path = (rows[i] as Assumption).path;
    paths[i] = path;
    const before = tail.get(path);
    if (before === undefined) firsts.push(i);
    else next[before] = i;
    tail.set(path, i);
  }
  const open = new TextMap<Group>();
  const groups: Group[] = [];
  for (const first of firsts) {
    const path = paths[first] as string;
    const dir = parentOf(path);
    let group = open.get(dir);
    if (group === undefined || group.rows.length >= most) {
      group = { dir, rows: [], paths: [] };
      open.set(dir, group);
      groups.push(group);
    }
    for (let i = first; i !== -1; i = next[i] as number) {
      group.rows.push(i);
      group.paths.push(path);
    }
  }
  return groups;
}

/** The rows that reach one file, by its path in the tree, in input order, with where each was found. */
interface FileRows {
  readonly rows: number[];
  readonly found: Found[];
}

// Which file a found row reads: the path its links lead to, so that rows reaching one file by
// different spellings or links share one read. A dangling link reads nothing; its rows are keyed
// by their own spelling behind a NUL, which no tree path holds.
function fileKey(found: Found): string {
  return found.resolved === undefined ? `\0${found.spelled}` : found.resolved.path;
}

/**
 * The rows that must read a file, by the file they reach, filled as rows are located: files in
 * the order rows first reached them (directory by directory, as the tree lies on disk, when one
 * group is located at a time), and each file's rows in input order once `byFile` hands them out.
 */
class ReadList {
  // Keyed by tree paths, or a dangling link's plan spelling: a `TextMap`, as those may be longer than V8 hashes.
  private readonly files = new TextMap<FileRows>();
  private reordered = false;

  add(i: number, at: Found): void {
    const key = fileKey(at);
    const rows = this.files.get(key);
    if (rows === undefined) this.files.set(key, { rows: [i], found: [at] });
    else {
      // Rows reaching one file from two directories (through links), or from groups located at
      // once, may come out of order.
      this.reordered ||= i < (rows.rows[rows.rows.length - 1] as number);
      rows.rows.push(i);
      rows.found.push(at);
    }
  }

  byFile(): FileRows[] {
    const all = [...this.files.values()];
    return this.reordered ? all.map(inInputOrder) : all;
  }
}

function inInputOrder(file: FileRows): FileRows {
  const order = file.rows.map((_, k) => k).sort((x, y) => (file.rows[x] as number) - (file.rows[y] as number));
  return { rows: order.map((k) => file.rows[k] as number), found: order.map((k) => file.found[k] as Found) };
}

/**
 * Tells `view` what the rows of one file will ask (those up to row `until` of the plan): the
 * literals of its `contains` and `lacks` rows, and those of its `lacks` rows.
 */
function expectFrom(view: FileView, file: FileRows, until: number, rows: readonly Assumption[]): void {
  const literals: string[] = [];
  const lacking: string[] = [];
  for (const i of file.rows) {
    if (i > until) break;
    const a = rows[i] as Assumption;
    if (a.kind === "contains" || a.kind === "lacks") literals.push(a.literal);
    if (a.kind === "lacks") lacking.push(a.literal);
  }
  view.expect(literals, lacking);
}

function tooLarge(read: Result<unknown, CheckFault>): boolean {
  return read.isErr() && read.error.code === "tree-too-large";
}

type Outcome = { readonly rows: ReportRow[] } | { readonly fault: CheckFault };

/**
 * Judges every row in two passes. First directory by directory: each directory is resolved once
 * for all its rows, and a row found there as written takes no walk; `exists` and `absent` rows are
 * judged there. Then file by file: the rows that read one file, whatever spelling or link each took
 * to it, share one read. After a fault, only rows above it in the file are still judged, so the
 * fault reported is the first in input order, as if judged top to bottom. Exported for tests;
 * `checkTree` is the entry.
 */
export async function judgeAll(loc: Locator, rows: readonly Assumption[], maxBytes: number): Promise<Outcome> {
  const out: ReportRow[] = new Array(rows.length);
  // The rows found where a file may be read, by the file: judged in the second pass.
  const reads = new ReadList();
  let firstFault = rows.length;
  let fault: CheckFault | undefined;
  const record = (i: number, a: Assumption, result: Result<ReportRow, CheckFault>): void => {
    if (result.isOk()) out[i] = result.value;
    else if (i < firstFault) {
      firstFault = i;
      fault = { ...result.error, line: a.line };
    }
  };
  const locateGroup = async (group: Group): Promise<void> => {
    const at = await plainDir(loc, group.dir);
    for (let k = 0; k < group.rows.length; k += 1) {
      const i = group.rows[k] as number;
      if (i > firstFault) continue;
      const a = rows[i] as Assumption;
      const path = group.paths[k] as string;
      const hit = exactIn(at, path);
      const quick = at && foundIn(at, hit);
      const located: Result<Located, CheckFault> = quick ? ok(quick) : await locateIn(loc, group.dir, at, path, hit, group.rows.length > 1);
      if (located.isErr()) record(i, a, err(located.error));
      else if ("directory" in a) record(i, a, ok(judgeEntry(a, located.value)));
      else if (located.value.state === "found") reads.add(i, located.value);
      else record(i, a, ok(judgeUnfound(a, located.value)));
    }
    // Its directory's rows are all located once its last group is: the directory's scan (a log of
    // every spelling on the way, with its index) is not needed again. Dropped any earlier, each
    // group of a directory crowded with spellings would scan them all again.
    const left = (groupsLeft.get(group.dir) as number) - 1;
    if (left > 0) groupsLeft.set(group.dir, left);
    else loc.scans.delete(group.dir);
  };
  const width = inFlightOf(loc.listings.tree);
  const groups = groupByDirectory(rows, width);
  const groupsLeft = new TextMap<number>();
  for (const group of groups) groupsLeft.set(group.dir, (groupsLeft.get(group.dir) ?? 0) + 1);
  await inTurn(groups, width, (group) => (group.rows[0] as number) > firstFault, locateGroup);
  // Every row is located: the listings are not needed again, and their memory serves the reads.
  forgetLocated(loc);
  // The large files' queue: each waits for the one before it to be judged.
  let largeTurn: Promise<void> = Promise.resolve();
  const readFile = async (file: FileRows): Promise<void> => {
    const at = file.found[0] as Found;
    let view = openView(loc, at, Math.min(maxBytes, SMALL_READ));
    let done = (): void => {};
    if (maxBytes > SMALL_READ && tooLarge(await view.read)) {
      const before = largeTurn;
      largeTurn = new Promise((go) => (done = go));
      await before;
      view = openView(loc, at, maxBytes);
    }
    try {
      expectFrom(view, file, firstFault, rows);
      for (let k = 0; k < file.rows.length; k += 1) {
        const i = file.rows[k] as number;
        if (i > firstFault) break;
        const a = rows[i] as Exclude<Assumption, { kind: "exists" | "absent" }>;
        record(i, a, await judgeFound(a, file.found[k] as Found, view));
      }
    } finally {
      done();
    }
  };
  await inTurn(reads.byFile(), width, (file) => (file.rows[0] as number) > firstFault, readFile);
  if (fault) return { fault };
  // With no fault, every row was judged: a gap is a bug, never a row silently counted as held.
  for (let i = 0; i < rows.length; i += 1) if (out[i] === undefined) throw new Error(`row ${i + 1} of the plan was left unjudged`);
  return { rows: out };
}

/** A report over judged rows: the verdict and the counts follow from the rows alone. */
export function reportOf(root: string, rows: ReportRow[]): Report {
  const diverged = rows.filter((r) => r.status === "diverge").length;
  return { verdict: diverged === 0 ? "holds" : "diverged", root, checked: rows.length, held: rows.length - diverged, diverged, rows };
}

// The rows judged against the tree, `maxBytes` already vetted.
function checkRows(tree: TreeReader, rows: readonly Assumption[], maxBytes: number): ResultAsync<Report, AssumptionsFault> {
  if (rows.length === 0) return errAsync({ code: "plan-empty" });
  const judged = judgeAll(createLocator(tree), rows, maxBytes);
  return ResultAsync.fromSafePromise(judged).andThen((outcome) =>
    "fault" in outcome ? errAsync<Report, AssumptionsFault>(outcome.fault) : okAsync(reportOf(tree.describe, outcome.rows)),
  );
}

/**
 * Checks rows that `parseAssumptions` made (the CLI's own, never a caller's): as `checkTree`,
 * without reading each row again under the file's rules.
 */
export function checkParsed(opts: CheckOptions): ResultAsync<Report, AssumptionsFault> {
  const maxBytes = maxBytesOption(opts.maxBytes);
  return maxBytes.isErr() ? errAsync(maxBytes.error) : checkRows(opts.tree, opts.assumptions, maxBytes.value);
}

/**
 * Checks every assumption against the tree; rows in input order. A run that hits a fault
 * yields that fault (the first in input order), never a verdict. Each directory is listed once.
 * An option that cannot be used (`maxBytes`) is refused first.
 */
export function checkTree(opts: CheckOptions): ResultAsync<Report, AssumptionsFault> {
  const maxBytes = maxBytesOption(opts.maxBytes);
  if (maxBytes.isErr()) return errAsync(maxBytes.error);
  // The caller may have built the rows by hand: each is held to the file's rules first.
  const rows: Assumption[] = new Array(opts.assumptions.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = reparseAssumption(opts.assumptions[i] as Assumption);
    if (row.isErr()) return errAsync(row.error);
    rows[i] = row.value;
  }
  return checkRows(opts.tree, rows, maxBytes.value);
}
