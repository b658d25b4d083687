// Running the built `decay` bin as a subprocess, as CI and people do; shared by the CLI tests.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURE, fixtureRepo, git } from "./harness.js";

/** The built bin (the suite builds first: `pnpm test`). */
export const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
/** The example agent and the fixture's script for it. */
export const EDIT_AGENT = fileURLToPath(new URL("../../../examples/agents/edit-agent.mjs", import.meta.url));
export const SCRIPT_FILE = join(FIXTURE, "script.json");

/** An environment with no CI flag (so a terminal gets the live view) unless the test sets one. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "CI") env[k] = v;
  return { ...env, ...extra };
}

/** What a finished `decay` process did. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Start `decay args…` in `cwd`; `onLine` sees each stdout line as it comes. */
export function start(
  args: readonly string[],
  cwd: string,
  onLine?: (line: string, child: ChildProcess) => void,
  env = cleanEnv(),
): { child: ChildProcess; done: Promise<Ran> } {
  if (!existsSync(BIN)) throw new Error(`missing ${BIN}: build first (npx -y pnpm@12.4.2 run build)`);
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let pending = "";
  child.stdout?.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
    pending += c.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) onLine?.(line, child);
  });
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const done = new Promise<Ran>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

/** Run `decay args…` to its end. */
export function decay(args: readonly string[], cwd: string, env?: Record<string, string>): Promise<Ran> {
  return start(args, cwd, undefined, env).done;
}

/** The `--agent` value running the edit agent with `script` (a file path). */
export function agentFlag(script = SCRIPT_FILE): string {
  return `${process.execPath} ${EDIT_AGENT} ${script}`;
}

/** The stats module with all three helpers right: every stage of the fixture's plan passes. */
export const SOLVED = `export function count(xs) {
  return xs.length;
}
export function sum(xs) {
  return xs.reduce((a, b) => a + b, 0);
}
export function mean(xs) {
  return xs.length === 0 ? 0 : sum(xs) / xs.length;
}
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}
`;

/** A fixture repository where every stage is already green. */
export async function solvedRepo(): Promise<string> {
  const repo = await fixtureRepo();
  writeFileSync(join(repo, "src/stats.mjs"), SOLVED);
  git(repo, "commit", "-qam", "solve");
  return repo;
}

/** The lines of the fixture's script, with `change` merged in, written to `dir/script.json`. */
export function scriptWith(dir: string, change: Record<string, unknown>): string {
  const path = join(dir, "script.json");
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(SCRIPT_FILE, "utf8")), ...change }));
  return path;
}
