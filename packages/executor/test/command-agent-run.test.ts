// A whole plan run through commandAgent with examples/agents/edit-agent.mjs ends exactly as the
// same script run through the in-process scripted agent; an aborted run writes RESUME.md.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileContract, type Contract, readPlan } from "@decay/contract";
import { describe, expect, it } from "vitest";
import { type RunReport, runPlan, scriptTable } from "../src/index.js";
import { commandAgent } from "../src/entries/node.js";
import { FIXTURE, fixtureRepo, nodeOptions, run } from "./harness.js";

const EDIT_AGENT = fileURLToPath(new URL("../../../examples/agents/edit-agent.mjs", import.meta.url));
const SCRIPT_FILE = join(FIXTURE, "script.json");
const script = JSON.parse(readFileSync(SCRIPT_FILE, "utf8"));

async function fixtureContract(repo: string): Promise<Contract> {
  const planText = readFileSync(join(repo, "docs/stats.plan.md"), "utf8");
  const plan = readPlan(planText);
  if (plan.isErr()) throw new Error(JSON.stringify(plan.error));
  return (await compileContract(plan.value, { planPath: "docs/stats.plan.md", planText }))._unsafeUnwrap();
}

/** What both agents must agree on: status, green stages, and per stage its final verdict, state and refused fixes. */
const outcome = (r: RunReport) => ({
  status: r.status,
  green: r.end.green,
  stages: r.stages.map((s) => ({ id: s.id, final: s.final, state: s.state, attempts: s.attempts, refused: s.refused_fixes.map((f) => [f.lens, f.reason]) })),
  tokens: r.cost.tokens,
});

describe("commandAgent over a whole plan", () => {
  it("ends with the same report outcome as the scripted agent", async () => {
    const [a, b] = await Promise.all([fixtureRepo(), fixtureRepo()]);
    const scripted = await run(await fixtureContract(a), nodeOptions(a, scriptTable(script)));
    const viaCommand = await run(await fixtureContract(b), {
      ...nodeOptions(b, scriptTable({})),
      agent: commandAgent({ command: process.execPath, args: [EDIT_AGENT, SCRIPT_FILE], timeoutMs: 30_000 }),
    });
    expect(outcome(viaCommand)).toEqual(outcome(scripted));
    expect(outcome(scripted)).toMatchObject({
      status: "incomplete",
      green: ["S1", "S2"],
      stages: [
        { id: "S1", final: "green", state: "green" },
        { id: "S2", final: "green", state: "green", attempts: 2 },
        { id: "S3", final: "red", state: "escalated", refused: [["what-changed", expect.stringContaining("pinned acceptance surface")]] },
      ],
    });
  });

  it("an agent that fails records why it returned nothing, and the run parks", async () => {
    const repo = await fixtureRepo();
    const agent = commandAgent({ command: process.execPath, args: ["-e", "process.stderr.write('usage limit reached'); process.exit(4)"] });
    const report = await run(await fixtureContract(repo), { ...nodeOptions(repo, scriptTable({})), agent });
    expect(report.status).toBe("parked");
    expect(report.cost.returned_nothing).toHaveLength(3);
    expect(report.cost.returned_nothing[0]).toMatchObject({
      stage: "S1",
      role: "execute",
      try: 1,
      reason: expect.stringMatching(/exited 4; stderr: usage limit reached/),
    });
    expect(readFileSync(join(repo, ".plan-runs/stats/REPORT.md"), "utf8")).toContain("usage limit reached");
  });

  it("an aborted signal stops the run at the step in flight: RESUME.md, the fault interrupted, nothing more", async () => {
    const repo = await fixtureRepo();
    const controller = new AbortController();
    const events: string[] = [];
    const result = await runPlan(await fixtureContract(repo), {
      ...nodeOptions(repo, scriptTable(script)),
      onEvent: (e) => {
        events.push(e.type);
        if (e.type === "agent-call" && e.stage === "S2") controller.abort();
      },
      signal: controller.signal,
    });
    expect(result.isErr() && result.error).toEqual({ code: "interrupted", step: "S2/a1/execute/t1" });
    expect(readFileSync(join(repo, ".plan-runs/stats/RESUME.md"), "utf8")).toContain("interrupted at step `S2/a1/execute/t1`");
    expect(events.at(-1)).toBe("parked");
    expect(existsSync(join(repo, ".plan-runs/stats/report.json"))).toBe(false);
  });
});
