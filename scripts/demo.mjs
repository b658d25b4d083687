// The demo (`pnpm demo`, after the build). Part 1: one assumptions file, two trees. The gate runs
// as a subprocess exactly as a fleet or CI would run it; each command, its output and its exit
// code are echoed. Part 2: the executor runs a three-stage plan (examples/run-a-plan) and refuses
// a fix that edits a test. Exits 0 only when the tree the plan was written against holds (0), the
// tree that moved halts (1), and the run ends with its escalation.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(repo, "packages/assumptions/dist/bin.cjs");
const plan = "fixtures/gate/batch-plan.assumptions.tsv";

function say(text) {
  process.stdout.write(`${text}\n`);
}

function gate(root, expected) {
  const args = ["--root", root, plan];
  say(`$ plan-decay ${args.join(" ")}`);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repo, encoding: "utf8" });
  process.stdout.write(r.stdout.replace(/^(?=.)/gm, "  "));
  if (r.stderr) process.stdout.write(r.stderr.replace(/^(?=.)/gm, "  "));
  say(`  (exit ${r.status}; expected ${expected})\n`);
  return r.status === expected;
}

function runAPlan() {
  say("\n3. The executor runs a staged plan (examples/run-a-plan): a stage is green only when its");
  say("   acceptance passes in a fresh clean room, and a fix that edits a test is refused:\n");
  const example = join(repo, "examples/run-a-plan/run-a-plan.mjs");
  say("$ node examples/run-a-plan/run-a-plan.mjs");
  const r = spawnSync(process.execPath, [example], { cwd: repo, encoding: "utf8" });
  process.stdout.write(r.stdout.replace(/^(?=.)/gm, "  "));
  if (r.stderr) process.stdout.write(r.stderr.replace(/^(?=.)/gm, "  "));
  say(`  (exit ${r.status}; expected 0)\n`);
  say("The same run from a shell, with any coding agent that speaks docs/agent-protocol.md:");
  // The agent runs in the repository: its script is named by an absolute path.
  say(`  decay run docs/stats.plan.md --repo . --agent "node ${join(repo, "examples/agents/shell-agent.mjs")} --template 'my-agent {prompt_file}'"`);
  return r.status === 0;
}

function main() {
  if (!existsSync(bin)) {
    process.stderr.write(`missing ${bin}: run the build first (npx -y pnpm@12.4.2 build)\n`);
    return 2;
  }
  say("A batch plan writes down what it believes about the repository, one TAB-separated row each:");
  say(`the payments module exists and still defines charge(), no refund() yet, no src/refunds.ts,`);
  say(`and src/ledger.ts exactly as it was (by digest). The file is ${plan}.\n`);
  say("1. The tree the plan was written against. Every belief is still true, so the batch may run:\n");
  const green = gate("fixtures/gate/plan-holds", 0);
  say("2. The same plan against a tree that moved while the plan waited. A sibling agent created");
  say("   src/refunds.ts, renamed charge() to capture(), added refund() and changed the ledger:\n");
  const red = gate("fixtures/gate/plan-decayed", 1);
  say("The gate said PLAN HOLDS (exit 0) for the first tree and HALT (exit 1) for the second.");
  say("Exit 1 means: stop the batch and re-plan from the tree as it is now, not patch the old plan.");
  say("A fault (a malformed plan, an unreadable directory, a broken stdout) is exit 2, never a verdict.");
  const executed = runAPlan();
  const all = green && red && executed;
  say(all ? "\ndemo: every run behaved as expected." : "\ndemo: FAILED, a run did not exit as expected.");
  return all ? 0 : 1;
}

process.exitCode = main();
