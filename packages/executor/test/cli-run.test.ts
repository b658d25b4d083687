// The built `decay` bin over the run-a-plan fixture: a full run (plain and --json), verify and
// report after it, and Ctrl-C mid-run: RESUME.md, exit 1, and a second run ends the same.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { outputProblems } from "../../../test-utils/json-schema.js";
import { RUN_EVENT_SCHEMA_ID, RUN_REPORT_SCHEMA_ID, RunEvent, RunReport } from "../src/index.js";
import { agentFlag, decay, type Ran, SCRIPT_FILE, scriptWith, start } from "./cli-process.js";
import { fixtureRepo } from "./harness.js";

/** The package's shipped JSON Schemas: every --json line names one of them in `$schema`. */
const SCHEMAS = fileURLToPath(new URL("../schemas", import.meta.url));

/** What a resumed run must reach again: no ids, no times, no loop states (a resumed stage is green at its start). */
const ending = (r: RunReport) => ({
  status: r.status,
  green: r.end.green,
  stages: r.stages.map((s) => ({ id: s.id, final: s.final, refused: s.refused_fixes.map((f) => [f.lens, f.fix, f.reason]) })),
});

/** The fixture's script with `stage`'s first execute held until the file `gate` exists. */
async function heldAt(stage: string): Promise<{ gate: string; script: string }> {
  const scratch = await tempDir();
  const gate = join(scratch, "go");
  const base = JSON.parse(readFileSync(SCRIPT_FILE, "utf8"));
  return { gate, script: scriptWith(scratch, { [`${stage} execute a1 t1`]: { ...base[`${stage} execute`], waitForFile: gate } }) };
}

const lastJson = (r: Ran) => RunReport.parse(JSON.parse(r.stdout.trim().split("\n").at(-1) ?? ""));

let plainRepo: string;
let jsonRepo: string;
let plain: Ran;
let json: Ran;
beforeAll(async () => {
  [plainRepo, jsonRepo] = await Promise.all([fixtureRepo(), fixtureRepo()]);
  [plain, json] = await Promise.all([
    decay(["run", "docs/stats.plan.md", "--agent", agentFlag()], plainRepo),
    decay(["run", "docs/stats.plan.md", "--agent", agentFlag(), "--json"], jsonRepo),
  ]);
}, 180_000);

describe("decay run over a three-stage plan", () => {
  it("exits 1 with the escalation's reason on the last line; plain progress, one line per event", () => {
    expect(plain.code).toBe(1);
    const lines = plain.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("incomplete: S3 not green (the chosen fix changed the pinned acceptance surface (1 row); it was not applied)");
    expect(lines.at(-3)).toBe("decay: incomplete; green: S1, S2; not green: S3 (escalated)");
    expect(plain.stdout).toMatch(/^\[ +[0-9.]+s\] S2 verify a1: red \(\.plan-runs\/stats\/ledger\/verify-S2-a1\.md\)$/m);
    expect(plain.stdout).toMatch(/^\[ +[0-9.]+s\] S3 escalated: /m);
    const report = readFileSync(join(plainRepo, ".plan-runs/stats/REPORT.md"), "utf8");
    expect(report).toContain("let the test accept the unsorted middle");
    expect(report).toContain("refused: the fix changed the pinned acceptance surface");
  });

  it("--json prints every event as one line valid against the published schema, then the report", () => {
    expect(json.code).toBe(1);
    const lines = json.stdout.trim().split("\n");
    for (const l of lines) expect(outputProblems(JSON.parse(l), SCHEMAS), l).toEqual([]);
    const events = lines.slice(0, -1).map((l) => RunEvent.parse(JSON.parse(l)));
    expect(events[0]?.type).toBe("run-started");
    expect(events.at(-1)).toEqual({ type: "done", status: "incomplete", green: ["S1", "S2"] });
    expect(events.filter((e) => e.type === "escalated").map((e) => e.stage)).toEqual(["S3"]);
    const report = lastJson(json);
    const published = JSON.parse(readFileSync(new URL("../schemas/run-report.schema.json", import.meta.url), "utf8")) as { $id: string };
    expect(JSON.parse(lines.at(-1) ?? "")).toMatchObject({ $schema: published.$id, version: 1 });
    expect(ending(report)).toEqual(ending(JSON.parse(readFileSync(join(plainRepo, ".plan-runs/stats/report.json"), "utf8"))));
  });

  it("verify re-runs acceptance over HEAD and writes REPORT.md; report prints it, or report.json", async () => {
    const verified = await decay(["verify", "docs/stats.plan.md", "--json"], jsonRepo);
    expect(verified.code).toBe(1);
    expect(JSON.parse(verified.stdout)).toMatchObject({ command: "verify", kind: "final", green: ["S1", "S2"] });
    const md = readFileSync(join(jsonRepo, ".plan-runs/stats/REPORT.md"), "utf8");
    expect(md).toContain("Status: **not green**");
    expect(md).toMatch(/- S3 \(Stage 3: median\): red, failing S3\.1/);
    const printed = await decay(["report", "."], jsonRepo);
    expect(printed).toMatchObject({ code: 0, stdout: md });
    const asJson = await decay(["report", ".plan-runs/stats", "--json"], jsonRepo);
    expect(asJson.code).toBe(0);
    expect(RunReport.parse(JSON.parse(asJson.stdout)).status).toBe("incomplete");
    expect(JSON.parse(asJson.stdout)).toMatchObject({ $schema: RUN_REPORT_SCHEMA_ID, version: 1 });
    expect((await decay(["report", "src"], jsonRepo)).stderr).toMatch(/src: cannot read: holds no REPORT\.md/);
  });

  it("an execute that guts its stage's test is undone and the stage escalates; --execute-may-edit-surface lets it stand", async () => {
    const scratch = await tempDir();
    // Stage 3's execute writes no median at all and rewrites the test that would have caught it.
    const script = scriptWith(scratch, { "S3 execute": { edit: { "test/median.test.mjs": 'console.log("median ok");\n' } } });
    const [refusedRepo, allowedRepo] = await Promise.all([fixtureRepo(), fixtureRepo()]);
    const [refused, allowed] = await Promise.all([
      decay(["run", "docs/stats.plan.md", "--agent", agentFlag(script)], refusedRepo),
      decay(["run", "docs/stats.plan.md", "--agent", agentFlag(script), "--execute-may-edit-surface"], allowedRepo),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stdout.trim().split("\n").at(-1)).toMatch(
      /^incomplete: S3 not green \(the execute changed the acceptance surface pinned at the stage's base \(1 file: test\/median\.test\.mjs: edited\); its commits were reverted \(by [0-9a-f]{12}\)\)$/,
    );
    expect(readFileSync(join(refusedRepo, "test/median.test.mjs"), "utf8")).not.toBe('console.log("median ok");\n');
    expect(allowed.code).toBe(0);
    expect(readFileSync(join(allowedRepo, "test/median.test.mjs"), "utf8")).toBe('console.log("median ok");\n');
  }, 180_000);

  it("Ctrl-C mid-run kills the agent, writes RESUME.md and exits 1; running again ends with the same report", async () => {
    const repo = await fixtureRepo();
    // Stage 2's execute blocks until `gate` exists: it is in flight when the run is interrupted.
    const { gate, script } = await heldAt("S2");
    const interrupted = start(["run", "docs/stats.plan.md", "--agent", agentFlag(script), "--json"], repo, (line, child) => {
      const e = JSON.parse(line);
      if (e.type === "agent-call" && e.stage === "S2") child.kill("SIGINT");
    });
    const first = await interrupted.done;
    expect(first.code).toBe(1);
    expect(first.stderr).toBe("parked: interrupted at step S2/a1/execute/t1; RESUME.md written; run the same command again to resume\n");
    expect(JSON.parse(first.stdout.trim().split("\n").at(-1) ?? "")).toEqual({
      $schema: RUN_EVENT_SCHEMA_ID,
      version: 1,
      type: "parked",
      stage: "S2",
      resume: ".plan-runs/stats/RESUME.md",
    });
    const resume = readFileSync(join(repo, ".plan-runs/stats/RESUME.md"), "utf8");
    expect(resume).toContain("interrupted at step `S2/a1/execute/t1`");
    expect(resume).toContain(`decay run docs/stats.plan.md --agent`);
    writeFileSync(gate, "");
    const second = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag(script), "--json"], repo);
    expect(second.code).toBe(1);
    const resumed = lastJson(second);
    expect(resumed.stages[0]?.state).toBe("green-at-start");
    expect(ending(resumed)).toEqual(ending(lastJson(json)));
    expect(existsSync(join(repo, ".plan-runs/stats/RESUME.md"))).toBe(false);
  });
});

describe("two decay runs in one working tree", () => {
  it("the second exits 2 naming the first and changes nothing; the first ends as it would alone", async () => {
    const repo = await fixtureRepo();
    // Stage 1's execute writes its work and waits for `gate`: the first run is in flight, its work uncommitted.
    const { gate, script } = await heldAt("S1");
    let inFlight: () => void = () => undefined;
    const reached = new Promise<void>((ok) => {
      inFlight = ok;
    });
    const first = start(["run", "docs/stats.plan.md", "--agent", agentFlag(script), "--json"], repo, (line) => {
      if (JSON.parse(line).type === "agent-call") inFlight();
    });
    await reached;
    const second = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag(script)], repo);
    expect([second.code, second.stdout]).toEqual([2, ""]);
    expect(second.stderr).toMatch(
      /^decay: .*another run holds the working tree .* \(pid \d+ on .*, since \d{4}-.*\): .*remove .*\.git\/decay-run\.lock and run again\n$/,
    );
    writeFileSync(gate, "");
    const ran = await first.done;
    expect(ending(lastJson(ran))).toEqual(ending(lastJson(json)));
    expect(existsSync(join(repo, ".git/decay-run.lock"))).toBe(false);
  });
});

describe("decay run with an agent that prints multi-line text that is not JSON", () => {
  it("parks (exit 1) with one reason line last, the agent's text escaped; every event stays one line", async () => {
    const repo = await fixtureRepo();
    const agent = join(await tempDir(), "garbage.sh");
    writeFileSync(agent, "#!/bin/sh\ncat >/dev/null\nprintf 'oops\\nnot json\\n'\nprintf 'warn\\r\\033[31mred\\n' >&2\n");
    chmodSync(agent, 0o755);
    const r = await decay(["run", "docs/stats.plan.md", "--agent", agent], repo);
    expect(r.code).toBe(1);
    const reason = `the agent returned nothing 3 times in a row (last: the agent failed: ${agent}: printed a reply that is not JSON: "oops\\nnot json\\n"; stderr: warn\\r\\u001b[31mred)`;
    const lines = r.stdout.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.at(-1)).toBe(`parked: ${reason}`);
    for (const line of lines.slice(0, -3)) expect(line).toMatch(/^\[ +[0-9.]+s\] \S[^\r\u001b]*$/);
    expect(lines.filter((l) => l.includes("returned nothing (try"))).toHaveLength(3);
    expect(readFileSync(join(repo, ".plan-runs/stats/RESUME.md"), "utf8")).toContain(`\nThe run parked: ${reason}.\n`);
  });
});
