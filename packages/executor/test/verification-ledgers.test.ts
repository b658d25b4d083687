// A run's ledger is its evidence, and its report.json names those files. `decay preflight` and
// `decay verify` judge whatever commit is checked out, later and by anyone: they write into a
// folder of their own per commit, so no report ever names a file that holds another verification.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { okAsync } from "neverthrow";
import { Killed, killAfter, recordingRunner } from "../src/entries/testing.js";
import { readLedger, RunReport, runPlan, scriptTable, verifyContract } from "../src/index.js";
import { agentFlag, decay } from "./cli-process.js";
import { contractOf, fixtureRepo, git, makeRepo, nodeOptions, planOf } from "./harness.js";

/** Every file of a folder and its text, by name. */
const filesOf = (dir: string) => Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), "utf8")]));

/** The ledger entry in a repository file; a missing or unreadable one fails the test. */
function entryAt(repo: string, path: string) {
  const entry = readLedger(readFileSync(join(repo, path), "utf8"));
  if (entry === null) throw new Error(`${path}: no ledger entry`);
  return entry;
}

/** What report.json says of each stage's final verdict, set beside what the ledger file it names holds. */
function runReportAgainstLedgers(repo: string) {
  const report = RunReport.parse(JSON.parse(readFileSync(join(repo, ".plan-runs/stats/report.json"), "utf8")));
  return report.stages.map((s) => {
    const named = s.verified === null ? null : entryAt(repo, s.verified.ledger);
    return {
      said: { commit: s.verified?.commit, green: s.final === "green" },
      holds: { commit: named?.commit, green: named?.green },
      every: s.ledger.map((l) => entryAt(repo, l).stage),
    };
  });
}

/** What a verification's REPORT.md says of each stage (commit, green, ledger), set beside what that ledger file holds. */
function verificationReportAgainstLedgers(repo: string, md: string) {
  const commit = /at commit ([0-9a-f]+)/.exec(md)?.[1];
  return [...md.matchAll(/^- (\S+) \(.*\): (green|red)[^\n]*; ledger `([^`]+)`$/gm)].map(([, stage, verdict, ledger]) => {
    const named = entryAt(repo, ledger as string);
    return { said: { stage, commit, green: verdict === "green" }, holds: { stage: named.stage, commit: named.commit, green: named.green } };
  });
}

describe("standalone verifications and a run's evidence", () => {
  it("decay verify and decay preflight at another commit leave the run's ledger as it was; every report names files holding what it says", async () => {
    const repo = await fixtureRepo();
    const ran = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag()], repo);
    expect(ran.code, ran.stderr).toBe(1);
    const ledger = join(repo, ".plan-runs/stats/ledger");
    const evidence = filesOf(ledger);
    const runJson = readFileSync(join(repo, ".plan-runs/stats/report.json"), "utf8");
    const runHead = git(repo, "rev-parse", "HEAD");
    // Another commit checked out: the start, where no stage is green.
    git(repo, "checkout", "-q", "main");
    const main = git(repo, "rev-parse", "HEAD");
    const verified = await decay(["verify", "docs/stats.plan.md", "--json"], repo);
    expect(verified.code, verified.stderr).toBe(1);
    for (let k = 0; k < 2; k++) expect((await decay(["preflight", "docs/stats.plan.md"], repo)).code).toBe(1);

    expect(filesOf(ledger)).toEqual(evidence);
    const run = runReportAgainstLedgers(repo);
    for (const s of run) expect(s.holds).toEqual(s.said);
    expect(run.map((s) => s.said)).toEqual([
      { commit: runHead, green: true },
      { commit: runHead, green: true },
      { commit: runHead, green: false },
    ]);
    // The verification's ledgers sit in their own folder, named by the commit they judged.
    const json = JSON.parse(verified.stdout);
    expect(json.stages.S1.ledger).toBe(`.plan-runs/stats/verifications/${main}/final-S1.md`);
    expect(readdirSync(join(repo, ".plan-runs/stats/verifications", main)).sort()).toEqual(
      ["final-S1.md", "final-S2.md", "final-S3.md", "preflight-S1.md", "preflight-S2.md", "preflight-S3.md"].sort(),
    );
    const md = readFileSync(join(repo, ".plan-runs/stats/REPORT.md"), "utf8");
    const claims = verificationReportAgainstLedgers(repo, md);
    expect(claims).toHaveLength(3);
    for (const c of claims) expect(c.holds).toEqual({ ...c.said, commit: main });
    // decay report: REPORT.md is the verification's; report.json is still the run's, byte for byte.
    expect(await decay(["report", "."], repo)).toMatchObject({ code: 0, stdout: md });
    expect(await decay(["report", ".", "--json"], repo)).toMatchObject({ code: 0, stdout: runJson });

    // A run after it: its own ledger and reports again; the verification's folder stays as it was.
    const kept = filesOf(join(repo, ".plan-runs/stats/verifications", main));
    const again = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag()], repo);
    expect(again.code, again.stderr).toBe(1);
    for (const s of runReportAgainstLedgers(repo)) expect(s.holds).toEqual(s.said);
    expect(readFileSync(join(repo, ".plan-runs/stats/REPORT.md"), "utf8")).toContain("# Run report");
    expect(filesOf(join(repo, ".plan-runs/stats/verifications", main))).toEqual(kept);
  }, 180_000);

  it("a second decay verify at the same commit stopped half-way by a fault leaves no REPORT.md naming a ledger it rewrote", async () => {
    const flag = join(await tempDir(), "flaky");
    const repo = await makeRepo({
      // The second stage's output makes its regex backtrack for as long as the flag exists.
      "bin/s2.sh": `if [ -f ${flag} ]; then printf ${"a".repeat(40)}b; else printf aa; fi\n`,
    });
    await contractOf(
      repo,
      planOf([
        ["first", [`\`test ! -f ${flag}\` exits 0`]],
        ["second", ["`sh bin/s2.sh` exits 0 and matches /^(a|a)*$/"]],
      ]),
      "flaky",
    );
    const args = ["verify", "docs/flaky.plan.md", "--pattern-timeout-ms", "300"];
    expect((await decay(args, repo)).code).toBe(0);
    const report = join(repo, ".plan-runs/flaky/REPORT.md");
    expect(readFileSync(report, "utf8")).toContain("Status: **green**");
    // The same commit judged again: the first stage is red now, the second stops with a fault.
    writeFileSync(flag, "");
    const stopped = await decay(args, repo);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain("acceptance row S2.1");
    if (existsSync(report)) {
      for (const c of verificationReportAgainstLedgers(repo, readFileSync(report, "utf8"))) expect(c.holds).toEqual(c.said);
    }
    expect(entryAt(repo, `.plan-runs/flaky/verifications/${git(repo, "rev-parse", "HEAD")}/final-S1.md`).green).toBe(false);
  }, 120_000);
});

describe("the commit a verification judges names its folder", () => {
  it("a git port whose head is no full commit id is refused before anything is written", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`true` exits 0"]]]));
    const base = nodeOptions(repo, scriptTable({}));
    for (const head of ["../../outside", "HEAD", "abc123"]) {
      const git = { ...base.git, head: () => okAsync(head) };
      const verified = await verifyContract(contract, { ...base, git, kind: "final" });
      expect(verified._unsafeUnwrapErr()).toEqual({ code: "git-failed", op: "head", reason: `gave ${JSON.stringify(head)}, not a full commit id` });
      expect(existsSync(join(repo, ".plan-runs"))).toBe(false);
    }
  });
});

describe("a run clears the reports before it, which name ledger files it writes again", () => {
  it("stopped before its own report, it leaves none; decay report says a run has not ended; run again, it reports", async () => {
    const repo = await makeRepo({ "src/a.txt": "old\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]]]));
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } } });
    const workspace = join(repo, ".plan-runs/demo");
    const recorder = recordingRunner();
    expect((await runPlan(contract, nodeOptions(repo, script, { runner: recorder })))._unsafeUnwrap().status).toBe("green");
    expect(existsSync(join(workspace, "report.json"))).toBe(true);
    // The next run, stopped in the step after its preflight rewrote ledger/preflight-S1.md.
    const k = recorder.log.findIndex((s) => s.name === "preflight") + 2;
    await expect(runPlan(contract, nodeOptions(repo, script, { runner: killAfter(k) }))).rejects.toBeInstanceOf(Killed);
    expect(existsSync(join(workspace, "ledger/preflight-S1.md"))).toBe(true);
    expect([existsSync(join(workspace, "report.json")), existsSync(join(workspace, "REPORT.md"))]).toEqual([false, false]);
    const told = await decay(["report", "."], repo);
    expect(told.code).toBe(2);
    expect(told.stderr).toContain("holds no REPORT.md: a run started in .plan-runs/demo has not ended");
    expect((await decay(["report", ".plan-runs/demo"], repo)).stderr).toContain("a run started in .plan-runs/demo has not ended");
    // A file of that name anywhere else is no run's marker.
    mkdirSync(join(repo, "notes"));
    writeFileSync(join(repo, "notes", "unfinished.txt"), "my list\n");
    expect((await decay(["report", "notes"], repo)).stderr).toContain("holds no REPORT.md (neither a run's workspace nor a repository with one run)");
    // Run again: it resumes and reports, and each ledger its report names holds what it says.
    const again = (await runPlan(contract, nodeOptions(repo, script)))._unsafeUnwrap();
    expect(again.status).toBe("green");
    for (const s of again.stages) expect(entryAt(repo, s.verified?.ledger ?? "")).toMatchObject({ commit: s.verified?.commit, green: true });
    expect((await decay(["report", "."], repo)).code).toBe(0);
    // REPORT.md gone (as a re-verify stopped half-way leaves it): report.json is still found by --json.
    rmSync(join(workspace, "REPORT.md"));
    const json = await decay(["report", ".", "--json"], repo);
    expect(json.code, json.stderr).toBe(0);
    expect(RunReport.parse(JSON.parse(json.stdout)).status).toBe("green");
    expect((await decay(["report", "."], repo)).stderr).toContain("holds no REPORT.md (neither a run's workspace nor a repository with one run)");
  }, 120_000);
});
