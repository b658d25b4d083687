// Shared by the durable tests: the counting agent's log, and waiting for a condition.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../../../../test-utils/tmp.js";
import { SCRIPT_FILE } from "../cli-process.js";
import { fixtureRepo, git } from "../harness.js";

/** The counting agent (see counting-agent.mjs). */
export const COUNTING_AGENT = fileURLToPath(new URL("./counting-agent.mjs", import.meta.url));

/**
 * A fixture repository and the arguments of a durable run of it (`flags` before `--durable`) whose
 * agent logs to `log` and holds its S2 fix call until `gate` exists: a run to stop mid-call.
 */
export async function gatedDurableRun(prefix: string, flags: readonly string[] = []) {
  const work = await tempDir(prefix);
  const repo = await fixtureRepo();
  const gate = join(work, "gate");
  const script = JSON.parse(readFileSync(SCRIPT_FILE, "utf8"));
  script["S2 fix"] = { ...script["S2 fix"], waitForFile: gate };
  writeFileSync(join(work, "script.json"), JSON.stringify(script));
  const log = join(work, "durable.log");
  const state = join(work, "state");
  const agent = `${process.execPath} ${COUNTING_AGENT} ${log} ${join(work, "script.json")}`;
  const args = ["run", "docs/stats.plan.md", ...flags, "--durable", state, "--agent", agent];
  return { work, repo, gate, log, state, args };
}

/** One line of the counting agent's log; the tests add `kill` lines of their own. */
export interface Entry {
  readonly pid: number;
  readonly at: "start" | "end" | "kill";
  readonly dir: string;
  readonly key: string;
}

/** Every line of a counting agent's log, in the order written. */
export function entries(log: string): Entry[] {
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** The agent calls logged, in the order they started. */
export function calls(log: string): string[] {
  return entries(log)
    .filter((e) => e.at === "start")
    .map((e) => e.key);
}

/** Wait until `what()` holds, checking every 50 ms; throws after `ms`. */
export async function until(what: () => boolean, ms = 180_000): Promise<void> {
  for (let waited = 0; !what(); waited += 50) {
    if (waited > ms) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Wait until the asynchronous `what()` holds, checking every 250 ms; throws after `ms`. */
export async function eventually(what: () => Promise<boolean>, ms = 180_000): Promise<void> {
  for (let waited = 0; !(await what()); waited += 250) {
    if (waited > ms) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The Decay-Step markers of the commits a run made on `branch` since `main`, oldest first. */
export function stepCommits(repo: string, branch: string): string[] {
  return git(repo, "log", "--reverse", "--format=%(trailers:key=Decay-Step,valueonly)", `main..${branch}`)
    .split("\n")
    .filter((l) => l.trim() !== "");
}
