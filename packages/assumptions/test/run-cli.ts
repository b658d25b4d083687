import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root: fixtures are named from here, as the fixtures README writes them. */
export const REPO = fileURLToPath(new URL("../../../", import.meta.url));

/** The built CLI (the root test script builds before vitest; build by hand for your own runs). */
export const BIN = `${REPO}packages/assumptions/dist/bin.cjs`;

/** What a finished CLI run left behind. */
export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI (optionally through a wrapper such as setpriv) and waits for it to finish. */
export function cli(args: readonly string[], opts: { cwd?: string; input?: string | Buffer; wrap?: readonly string[] } = {}): Promise<Ran> {
  const [command = process.execPath, ...before] = [...(opts.wrap ?? []), process.execPath];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...before, BIN, ...args], { cwd: opts.cwd ?? REPO, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
}

/**
 * Runs the CLI with stdout a pipe whose read end is already closed. The plan arrives on stdin
 * only after the close, so the CLI cannot have written anything before its stdout broke.
 */
export function cliIntoBrokenPipe(args: readonly string[], input: Buffer): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stderr }));
    child.stdout.on("close", () => child.stdin.end(input));
    child.stdout.destroy();
  });
}
