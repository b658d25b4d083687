import type { WorkflowStatus } from "@dbos-inc/dbos-sdk";
import { describe, expect, it } from "vitest";
import { DISPATCH_NAME, dispatchIdOf, queueOwner, runIdOfDispatch, workerQueueOf } from "./affinity.js";
import type { RunJob } from "./job.js";
import { type Inspector, listRuns, showRun, WORKFLOW_NAME } from "./status.js";

const job = (plan: string): RunJob => ({ contract: "c", repo: "/src", base: null, plan, settings: {} });

/** A workflow row as DBOS lists it, with only what the listing reads. */
function row(workflowID: string, workflowName: string, status: string, extra: Partial<WorkflowStatus> = {}): WorkflowStatus {
  return { workflowID, workflowName, status, workflowClassName: "", input: [job(`docs/${runIdOfDispatch(workflowID)}.plan.md`)], ...extra } as WorkflowStatus;
}

/** The rows in creation order, each run with the given number of steps recorded. */
function inspector(rows: WorkflowStatus[], steps: Record<string, number> = {}): Inspector {
  return {
    listWorkflows: async (input) =>
      rows.filter(
        (w) =>
          (input.workflowIDs === undefined || input.workflowIDs.includes(w.workflowID)) &&
          (input.workflowName === undefined || [input.workflowName].flat().includes(w.workflowName)),
      ),
    listWorkflowSteps: async (id) =>
      Array.from({ length: steps[id] ?? 0 }, (_, k) => ({ functionID: k, name: `s${k}`, output: null, error: null, childWorkflowID: null })),
  };
}

describe("run listings under worker affinity", () => {
  it("names a dispatcher's run and a worker's own queue's owner", () => {
    expect(runIdOfDispatch(dispatchIdOf("p-0123"))).toBe("p-0123");
    expect(queueOwner(workerQueueOf("decay-runs", "host@1"))).toBe("host@1");
    expect(queueOwner("decay-runs")).toBeNull();
    expect(queueOwner(undefined)).toBeNull();
  });

  it("lists each run once by its run id, in the order runs were first enqueued, never a dispatcher", async () => {
    const rows = [
      // a: enqueued, dispatched to w1, running there.
      row(dispatchIdOf("a"), DISPATCH_NAME, "PENDING", { executorId: "w1", queueName: "decay-runs" }),
      // b: on the shared queue, no worker has it; c: a worker took its dispatcher, the run not started yet.
      row(dispatchIdOf("b"), DISPATCH_NAME, "ENQUEUED", { queueName: "decay-runs" }),
      row(dispatchIdOf("c"), DISPATCH_NAME, "PENDING", { executorId: "w2", queueName: "decay-runs" }),
      row("a", WORKFLOW_NAME, "PENDING", { executorId: "w1", queueName: "decay-runs@w1" }),
      // d: recovered, waiting on w3's own queue for w3 to serve again.
      row("d", WORKFLOW_NAME, "ENQUEUED", { executorId: "w3", queueName: "decay-runs@w3" }),
    ];
    const listed = (await listRuns(inspector(rows, { a: 4, d: 7 })))._unsafeUnwrap();
    expect(listed.map((r) => [r.id, r.status, r.worker, r.steps, r.plan])).toEqual([
      ["a", "PENDING", "w1", 4, "docs/a.plan.md"],
      ["b", "ENQUEUED", null, 0, "docs/b.plan.md"],
      ["c", "ENQUEUED", null, 0, "docs/c.plan.md"],
      ["d", "ENQUEUED", "w3", 7, "docs/d.plan.md"],
    ]);
  });

  it("shows a run by its run id from its own row, or from its dispatcher's before it started", async () => {
    const rows = [
      row(dispatchIdOf("a"), DISPATCH_NAME, "ENQUEUED", { queueName: "decay-runs" }),
      row(dispatchIdOf("b"), DISPATCH_NAME, "PENDING", { executorId: "w2", queueName: "decay-runs" }),
      row("b", WORKFLOW_NAME, "PENDING", { executorId: "w1", queueName: "decay-runs@w1" }),
    ];
    const dbos = inspector(rows, { b: 2 });
    expect((await showRun(dbos, "a"))._unsafeUnwrap()).toMatchObject({ id: "a", status: "ENQUEUED", worker: null, stepNames: [], dir: null });
    expect((await showRun(dbos, "b"))._unsafeUnwrap()).toMatchObject({ id: "b", status: "PENDING", worker: "w1", stepNames: ["s0", "s1"] });
    expect((await showRun(dbos, dispatchIdOf("a")))._unsafeUnwrapErr()).toEqual({ code: "run-unknown", id: dispatchIdOf("a") });
    expect((await showRun(dbos, "z"))._unsafeUnwrapErr().code).toBe("run-unknown");
  });

  it("a finished run whose recorded output is no run outcome this version reads is a failure, never a quiet success", async () => {
    const output = { id: "a", worker: "w1", dir: "/x", branch: "plan/a", report: { status: "green" }, fault: null, reportMd: "# Run report", bundle: null };
    const shown = (await showRun(inspector([row("a", WORKFLOW_NAME, "SUCCESS", { output })]), "a"))._unsafeUnwrap();
    expect(shown.result).toBeNull();
    expect(shown.failure).toMatch(/^its workflow ended, but what it recorded is no run outcome this version of decay reads \(report\./);
  });
});
