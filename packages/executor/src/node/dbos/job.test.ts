import { describe, expect, it } from "vitest";
import { dispatchIdOf } from "./affinity.js";
import { enqueueAttempt, lookWith, parseJob, type RecordedRun, type RunJob, runIdOf, type WorkflowRow } from "./job.js";

const JOB: RunJob = { contract: "# contract\n", repo: "/srv/repo.git", base: null, plan: "docs/p.plan.md", settings: {} };

describe("parseJob", () => {
  it("takes a job as the runner and the client do", () => {
    expect(parseJob(JOB)._unsafeUnwrap()).toEqual(JOB);
  });

  it("refuses a bad job as job-invalid naming each wrong field, never as zod's raw JSON", () => {
    const fault = parseJob({ ...JOB, repo: 7, plan: undefined })._unsafeUnwrapErr();
    expect(fault.code).toBe("job-invalid");
    const issue = (fault as { issue: string }).issue;
    expect(issue).toMatch(/^repo: .*; plan: /);
    expect(issue).not.toContain("[");
    expect(parseJob("a job")._unsafeUnwrapErr()).toMatchObject({ code: "job-invalid", issue: expect.stringMatching(/^job: /) });
  });
});

describe("enqueueAttempt", () => {
  const first = runIdOf(JOB);
  // Workflow rows by id, as DBOS would hold them.
  const rows = (entries: Record<string, WorkflowRow>) => lookWith(async (id) => entries[id] ?? null);
  const put = () => {
    const puts: string[] = [];
    return { puts, put: async (_job: RunJob, id: string) => void puts.push(id) };
  };

  it("enqueues a run never seen, and only joins one that is queued, running or finished with a report", async () => {
    const fresh = put();
    expect(await enqueueAttempt(JOB, rows({}), fresh.put)).toEqual({ id: first, existed: false, retried: [] });
    expect(fresh.puts).toEqual([first]);
    for (const state of [{ status: "ENQUEUED" }, { status: "PENDING" }]) {
      const joined = put();
      expect(await enqueueAttempt(JOB, rows({ [first]: state }), joined.put)).toEqual({ id: first, existed: true, retried: [] });
      expect(joined.puts).toEqual([]);
    }
  });

  it("goes past attempts that ended with a fault (an error, a cancelled run or dispatcher), naming each", async () => {
    const second = runIdOf({ ...JOB, attempt: 2 });
    const third = runIdOf({ ...JOB, attempt: 3 });
    const p = put();
    const look = rows({ [first]: { status: "ERROR" }, [dispatchIdOf(second)]: { status: "CANCELLED" } });
    expect(await enqueueAttempt(JOB, look, p.put)).toEqual({ id: third, existed: false, retried: [first, second] });
    expect(p.puts).toEqual([third]);
    expect(third).toBe(`${first}-r3`);
  });

  it("reads a run that is absent but whose dispatcher is live as live, and one whose dispatcher ended as faulted", async () => {
    const states: RecordedRun[] = [];
    for (const status of ["ENQUEUED", "SUCCESS", "ERROR"]) states.push(await rows({ [dispatchIdOf(first)]: { status } })(first));
    expect(states).toEqual(["live", "faulted", "faulted"]);
  });
});
