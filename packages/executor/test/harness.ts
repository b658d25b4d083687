// Shared by the executor's tests: real temp git repositories, a plan compiled with
// @decay/contract, runPlan over the Node adapters with a scripted agent, and the rooms' $TMPDIR.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Contract, compileContract, readPlan } from "@decay/contract";
import { tempDir } from "../../../test-utils/tmp.js";
import { type AgentScript, type RunOptions, type RunReport, runPlan, scriptedAgent } from "../src/index.js";
import { gitCloneRoom, nodeShell, systemGit } from "../src/entries/node.js";

/** Run git in `dir`; its stdout, trimmed. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** A script acceptance rows call to print one work file (`sh bin/show.sh a` prints src/a.txt). */
export const SHOW = { "bin/show.sh": 'cat "src/$1.txt"\n' };

/** A fresh repository on `main` holding `files` and `SHOW`, committed once. */
export async function makeRepo(files: Record<string, string>): Promise<string> {
  const dir = await tempDir("decay-exec-");
  writeFiles(dir, { ...SHOW, ...files });
  return commitAll(dir);
}

/** `git init` on `main` and one commit of everything in `dir`. */
function commitAll(dir: string): string {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "test@example.invalid");
  git(dir, "config", "user.name", "test");
  git(dir, "config", "commit.gpgsign", "false");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return dir;
}

/** The run-a-plan fixture (fixtures/run-a-plan): its repository copied and committed on `main`, and the agent script. */
export const FIXTURE = fileURLToPath(new URL("../../../fixtures/run-a-plan/", import.meta.url));

/** A fresh copy of the run-a-plan fixture's repository, committed once on `main`. */
export async function fixtureRepo(): Promise<string> {
  const dir = await tempDir("decay-fixture-");
  fs.cpSync(join(FIXTURE, "repo"), dir, { recursive: true });
  return commitAll(dir);
}

/** Write files (parents made) into a directory. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    fs.mkdirSync(join(dir, path, ".."), { recursive: true });
    fs.writeFileSync(join(dir, path), text);
  }
}

/** A staged plan of `stages`, each `[title, acceptance lines]`. */
export function planOf(stages: Array<[string, string[], string?]>, guardrails: string[] = []): string {
  const lines = ["# Plan", "", "## 5. What deliberately not to do", "", ...guardrails.map((g) => `- ${g}`), "", "## 6. Recommendation (staged)", ""];
  stages.forEach(([title, rows, extra], k) => {
    lines.push(`### Stage ${k + 1}: ${title}`, "", `Do ${title}.`, "", ...(extra ? [extra, ""] : []), ...rows.map((r) => `Acceptance: ${r}`), "");
  });
  return lines.join("\n");
}

/**
 * Compile plan text into a contract, its plan at `docs/<name>.plan.md`: committed in the repo,
 * unless `tracked` is false (a plan kept outside the repository).
 */
export async function contractOf(repo: string, planText: string, name = "demo", tracked = true): Promise<Contract> {
  const planPath = `docs/${name}.plan.md`;
  if (tracked) {
    writeFiles(repo, { [planPath]: planText });
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "the plan");
  }
  const plan = readPlan(planText);
  if (plan.isErr()) throw new Error(JSON.stringify(plan.error));
  const compiled = await compileContract(plan.value, { planPath, planText });
  if (compiled.isErr()) throw new Error(JSON.stringify(compiled.error));
  return compiled.value;
}

/** runPlan's options over the real Node adapters and a scripted agent. */
export function nodeOptions(repo: string, script: AgentScript, extra: Partial<RunOptions> = {}): RunOptions {
  return {
    repo,
    fs,
    git: systemGit({ dir: repo }),
    shell: nodeShell(),
    cleanRoom: gitCloneRoom({ repo }),
    agent: scriptedAgent({ fs, dir: repo, script }),
    commandTimeoutMs: 30_000,
    ...extra,
  };
}

/** Run a contract and return the report; a fault fails the test with its data. */
export async function run(contract: Contract, options: RunOptions): Promise<RunReport> {
  const result = await runPlan(contract, options);
  if (result.isErr()) throw new Error(`unexpected fault: ${JSON.stringify(result.error)}`);
  return result.value;
}

/** The parts of a report that are a function of the contract and the repository: no ids, no times. */
export function outcome(report: RunReport) {
  return {
    status: report.status,
    green: report.end.green,
    stages: report.stages.map((s) => ({ id: s.id, final: s.final, refused: s.refused_fixes.map((f) => f.lens) })),
  };
}

/** A private temp directory for the rooms of one command, outside the repository. */
export async function roomsDir(): Promise<string> {
  const dir = join(await tempDir("decay-rooms-"), "tmp");
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/**
 * Makes `<tmp>/decay-spares-<uid>` as another local user would, first, on a shared /tmp: owned by
 * another uid when the tests run as root (they can give it away), else open to everyone (all a
 * non-root test can make). Answers what the warning must say of it.
 */
export function squatSpares(tmp: string): { dir: string; why: string } {
  const uid = process.getuid?.() ?? -1;
  const dir = join(tmp, `decay-spares-${uid}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  if (uid === 0) {
    fs.chownSync(dir, 4242, 4242);
    return { dir, why: "it is owned by uid 4242, not by this user (uid 0)" };
  }
  fs.chmodSync(dir, 0o777);
  return { dir, why: "others have access to it (mode 777)" };
}
