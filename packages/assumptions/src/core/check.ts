import { errAsync, okAsync, type Result, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import type { AssumptionsFault, CheckFault } from "./faults.js";
import { judge } from "./judge.js";
import { createListings, type Listings } from "./listing.js";
import type { Assumption, Report, ReportRow } from "./model.js";
import { reparseAssumption } from "./parse.js";
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

async function judgeAll(listings: Listings, rows: readonly Assumption[], maxBytes: number): Promise<Outcome> {
  const results: Result<ReportRow, CheckFault>[] = new Array(rows.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < rows.length) {
      const i = next++;
      const judged = judge(listings, rows[i] as Assumption, maxBytes);
      // A row judged at once takes no turn of the event loop.
      const result = judged instanceof Promise ? await judged : judged;
      if (result.isErr()) failed = true;
      results[i] = result;
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rows.length) }, worker));
  const out: ReportRow[] = [];
  for (const result of results) {
    if (result === undefined) break;
    if (result.isErr()) return { fault: result.error };
    out.push(result.value);
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
    (outcome): ResultAsync<Report, AssumptionsFault> =>
      "fault" in outcome ? errAsync(outcome.fault) : okAsync(reportOf(opts.tree.describe, outcome.rows)),
  );
}
