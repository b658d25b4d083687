import { errAsync, okAsync, type Result, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { AssumptionsFault, CheckFault } from "./faults.js";
import { judge } from "./judge.js";
import { createListings, type Listings } from "./listing.js";
import type { Assumption, Report, ReportRow } from "./model.js";
import { reparseAssumption } from "./parse.js";
import { judgingOrder } from "./order.js";
import { DEFAULT_MAX_BYTES } from "./read.js";

/** Options of `checkTree`. */
export interface CheckOptions {
  readonly tree: TreeReader;
  readonly assumptions: readonly Assumption[];
  /** Largest file read, in bytes; larger files are a fault. Default 64 MiB. */
  readonly maxBytes?: number;
}

/** Rows judged at once: enough to overlap reads, few enough to bound memory. */
const IN_FLIGHT = 16;

type Outcome = { readonly rows: ReportRow[] } | { readonly fault: CheckFault };

/**
 * Judges every row, in the order `judgingOrder` gives, and lets each directory's listing go once
 * every row before its last one has an answer. After a fault, only rows above it in the file are
 * still judged, so the fault reported is the first in input order, as if judged top to bottom.
 */
async function judgeAll(listings: Listings, rows: readonly Assumption[], maxBytes: number): Promise<Outcome> {
  const { order, release } = judgingOrder(rows.map((a) => a.path));
  const results: Result<ReportRow, CheckFault>[] = new Array(rows.length);
  const answered = new Uint8Array(order.length);
  let next = 0;
  let settledUpTo = 0;
  let firstFault = rows.length;
  const settle = (position: number): void => {
    answered[position] = 1;
    while (settledUpTo < order.length && answered[settledUpTo] === 1) {
      const dirs = release[settledUpTo];
      if (dirs) for (const dir of dirs) listings.release(dir);
      settledUpTo += 1;
    }
  };
  const worker = async (): Promise<void> => {
    while (next < order.length) {
      const position = next++;
      const i = order[position] as number;
      if (i < firstFault) {
        const judged = judge(listings, rows[i] as Assumption, maxBytes);
        // A row judged at once takes no turn of the event loop.
        const result = judged instanceof Promise ? await judged : judged;
        if (result.isErr() && i < firstFault) firstFault = i;
        results[i] = result;
      }
      settle(position);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rows.length) }, worker));
  const fault = results[firstFault];
  if (fault?.isErr()) return { fault: fault.error };
  const out: ReportRow[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    const result = results[i];
    // With no fault, every row was judged: a gap is a bug, never a row silently left out.
    if (result === undefined || result.isErr()) throw new Error(`row ${i + 1} of the plan was left unjudged`);
    out[i] = result.value;
  }
  return { rows: out };
}

/** A report over judged rows: the verdict and the counts follow from the rows alone. */
export function reportOf(root: string, rows: ReportRow[]): Report {
  const diverged = rows.filter((r) => r.status === "diverge").length;
  return { verdict: diverged === 0 ? "holds" : "diverged", root, checked: rows.length, held: rows.length - diverged, diverged, rows };
}

/**
 * Checks every assumption against the tree; rows in input order. A run that hits a fault
 * yields that fault (the first in input order), never a verdict. Each directory is listed once.
 */
export function checkTree(opts: CheckOptions): ResultAsync<Report, AssumptionsFault> {
  if (opts.assumptions.length === 0) return errAsync({ code: "plan-empty" });
  // The caller may have built the rows by hand: each is held to the file's rules first.
  const rows: Assumption[] = new Array(opts.assumptions.length);
  for (let i = 0; i < rows.length; i += 1) {
    const row = reparseAssumption(opts.assumptions[i] as Assumption);
    if (row.isErr()) return errAsync(row.error);
    rows[i] = row.value;
  }
  const listings = createListings(opts.tree);
  return ResultAsync.fromSafePromise(judgeAll(listings, rows, opts.maxBytes ?? DEFAULT_MAX_BYTES)).andThen(
    (outcome): ResultAsync<Report, AssumptionsFault> => ("fault" in outcome ? errAsync(outcome.fault) : okAsync(reportOf(opts.tree.describe, outcome.rows))),
  );
}
