// Run a staged plan with @decay/executor, start to finish, in a throwaway repository:
// `node examples/run-a-plan/run-a-plan.mjs` (after the build). The repository and the plan are
// fixtures/run-a-plan: src/stats.mjs, its tests, and a three-stage plan (sum, mean, median). A
// scripted agent (fixtures/run-a-plan/script.json) completes stage 1, gets stage 2 wrong once and
// then fixes it, and tries to "fix" stage 3 by editing its test: the run refuses that fix (the
// test is on the pinned acceptance surface) and escalates. Prints each event, then REPORT.md.
// Exits 0 when the run ended exactly so, 1 otherwise.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileContract, readPlan } from "@decay/contract";
import { describeExecFault, runPlan, scriptedAgent, scriptTable } from "@decay/executor";
import { gitCloneRoom, nodeShell, systemGit } from "@decay/executor/node";

const fixture = fileURLToPath(new URL("../../fixtures/run-a-plan/", import.meta.url));
const say = (text) => process.stdout.write(`${text}\n`);

/** A fresh repository holding the fixture, committed once on main. */
function makeRepo() {
  const repo = fs.mkdtempSync(join(tmpdir(), "decay-run-a-plan-"));
  fs.cpSync(join(fixture, "repo"), repo, { recursive: true });
  const git = (...args) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "example@example.invalid");
  git("config", "user.name", "run-a-plan example");
  git("add", "-A");
  git("commit", "-q", "-m", "stats: count only");
  return repo;
}

/** Compile the plan into its acceptance contract (what each stage must pass, verbatim from the plan). */
async function contractOf(repo) {
  const planPath = "docs/stats.plan.md";
  const planText = fs.readFileSync(join(repo, planPath), "utf8");
  const plan = readPlan(planText);
  if (plan.isErr()) throw new Error(JSON.stringify(plan.error));
  const contract = await compileContract(plan.value, { planPath, planText });
  if (contract.isErr()) throw new Error(JSON.stringify(contract.error));
  return contract.value;
}

/** One line per event worth a person's attention. */
function show(e) {
  if (e.type === "stage-started") say(`  ${e.stage} ${e.title}`);
  else if (e.type === "agent-call") say(`    agent: ${e.role} (attempt ${e.attempt})`);
  else if (e.type === "verified") say(`    clean-room verification, attempt ${e.attempt}: ${e.green ? "green" : "red"}`);
  else if (e.type === "escalated") say(`    ESCALATED: ${e.reason}`);
  else if (e.type === "done") say(`  done: ${e.status}; green: ${e.green.join(", ")}`);
}

/** Run the example in a new temp repository; the report, and where the repository is. */
export async function runExample(onEvent = show) {
  const repo = makeRepo();
  const contract = await contractOf(repo);
  const script = scriptTable(JSON.parse(fs.readFileSync(join(fixture, "script.json"), "utf8")));
  const report = await runPlan(contract, {
    repo,
    fs,
    git: systemGit({ dir: repo }),
    shell: nodeShell(),
    cleanRoom: gitCloneRoom({ repo }),
    agent: scriptedAgent({ fs, dir: repo, script }),
    onEvent,
  });
  if (report.isErr()) throw new Error(describeExecFault(report.error));
  return { repo, report: report.value };
}

/** The ending this example promises: S1 and S2 green, S3 escalated with its test-editing fix refused. */
export function asPromised(report) {
  const [s1, s2, s3] = report.stages;
  return (
    report.status === "incomplete" &&
    s1?.final === "green" &&
    s2?.final === "green" &&
    s2.attempts === 2 &&
    s3?.state === "escalated" &&
    s3.final === "red" &&
    s3.refused_fixes.length === 1 &&
    s3.refused_fixes[0].diverged.some((row) => row.includes("test/median.test.mjs"))
  );
}

async function main() {
  say("Running fixtures/run-a-plan's three-stage plan with a scripted agent:\n");
  const { repo, report } = await runExample();
  say(`\n----- ${repo}/${report.workspace}/REPORT.md -----\n`);
  say(fs.readFileSync(join(repo, report.workspace, "REPORT.md"), "utf8"));
  fs.rmSync(repo, { recursive: true, force: true });
  const ok = asPromised(report);
  say(
    ok
      ? "run-a-plan: the run ended as promised: two stages green, the third escalated with its refused fix."
      : "run-a-plan: FAILED, the run did not end as promised.",
  );
  return ok ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`run-a-plan: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
