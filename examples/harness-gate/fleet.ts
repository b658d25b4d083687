// A tiny fleet loop that honours the plan-decay gate: before every batch it re-checks the plan's
// assumptions against the tree as it is now, and stops the moment one of them no longer holds.
import { type Assumption, type AssumptionsFault, checkTree, describeFault, parseAssumptions, type ReportRow } from "@decay/assumptions";
import { nodeTree } from "@decay/assumptions/node";

/** One batch of agent work; `run` does the work (here: simulated agents writing files). */
export interface Batch {
  readonly name: string;
  run(): Promise<void>;
}

/** How a fleet run ended: every batch ran, the gate halted it, or the gate itself failed. */
export type FleetOutcome =
  | { readonly kind: "completed"; readonly completed: readonly string[] }
  | { readonly kind: "halted"; readonly before: string; readonly completed: readonly string[]; readonly diverged: readonly ReportRow[] }
  | { readonly kind: "fault"; readonly before: string; readonly completed: readonly string[]; readonly message: string };

/** What the loop needs: the checkout the agents work in, the plan's assumptions text, the batches. */
export interface FleetOptions {
  readonly root: string;
  readonly assumptions: string;
  readonly batches: readonly Batch[];
}

type Gate = { readonly go: true } | { readonly go: false; readonly diverged: readonly ReportRow[] } | { readonly fault: AssumptionsFault };

/** Checks every assumption against a fresh read of the tree (the gate caches nothing across batches). */
async function gate(root: string, assumptions: readonly Assumption[]): Promise<Gate> {
  const checked = await checkTree({ tree: nodeTree(root), assumptions });
  if (checked.isErr()) return { fault: checked.error };
  const report = checked.value;
  if (report.verdict === "holds") return { go: true };
  return { go: false, diverged: report.rows.filter((row) => row.status === "diverge") };
}

/**
 * Runs the batches in order, checking the plan before each one. A divergence halts the fleet
 * before the batch that would have run off a dead plan; a fault halts it too, and is never
 * mistaken for a verdict either way.
 */
export async function runFleet(opts: FleetOptions): Promise<FleetOutcome> {
  const completed: string[] = [];
  const parsed = parseAssumptions(opts.assumptions);
  const first = opts.batches[0]?.name ?? "(no batch)";
  if (parsed.isErr()) return { kind: "fault", before: first, completed, message: describeFault(parsed.error) };
  for (const batch of opts.batches) {
    const verdict = await gate(opts.root, parsed.value);
    if ("fault" in verdict) return { kind: "fault", before: batch.name, completed, message: describeFault(verdict.fault) };
    if (!verdict.go) return { kind: "halted", before: batch.name, completed, diverged: verdict.diverged };
    await batch.run();
    completed.push(batch.name);
  }
  return { kind: "completed", completed };
}
