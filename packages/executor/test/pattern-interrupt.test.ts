// Ctrl-C during an acceptance regex that backtracks: with `breakOnSigint` (as `decay` sets it) the
// match stops at once and the signal still reaches the process, instead of waiting out the bound.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AcceptanceRow } from "@decay/contract";
import { describe, expect, it, onTestFinished } from "vitest";
import type { ShellResult } from "../src/ports.js";
import { judgeRow } from "../src/run/expect.js";
import { agentFlag, start } from "./cli-process.js";
import { contractOf, makeRepo, planOf } from "./harness.js";

const EVIL = "^(a|a)*$";
const LONG = `${"a".repeat(40)}b`;
const NODE_ENTRY = fileURLToPath(new URL("../dist/node.js", import.meta.url));

/** Resolves once `ready()` holds (polled), then sends SIGINT to `child`. */
function interruptWhen(child: ChildProcess, ready: () => boolean): void {
  const poll = setInterval(() => {
    if (!ready()) return;
    clearInterval(poll);
    // The match starts right after the marker; give it a moment to be inside V8.
    setTimeout(() => child.kill("SIGINT"), 300);
  }, 50);
  child.on("close", () => clearInterval(poll));
}

/** A Node process that matches EVIL with `nodePatterns(options)`, a SIGINT listener installed or not. */
function matcherProcess(
  options: string,
  listener: boolean,
): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; out: string }> } {
  if (!existsSync(NODE_ENTRY)) throw new Error(`missing ${NODE_ENTRY}: build first`);
  const script = [
    `import { nodePatterns } from ${JSON.stringify(NODE_ENTRY)};`,
    "let heard = 0;",
    listener ? `process.on("SIGINT", () => { heard += 1; });` : "",
    `const m = nodePatterns(${options});`,
    `process.stdout.write("matching\\n");`,
    `const answer = m.atLeast(${JSON.stringify(EVIL)}, ${JSON.stringify(LONG)}, 1);`,
    `setTimeout(() => process.stdout.write(JSON.stringify({ answer, heard }) + "\\n"), 200);`,
  ].join("\n");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString("utf8");
  });
  const done = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, out })),
  );
  interruptWhen(child, () => out.startsWith("matching\n"));
  return { child, done };
}

describe("nodePatterns with breakOnSigint", () => {
  it("answers interrupted at Ctrl-C and hands the signal to the process's listeners", { timeout: 60_000 }, async () => {
    const r = await matcherProcess("{ timeoutMs: 600000, breakOnSigint: true }", true).done;
    expect(r.code).toBe(0);
    expect(r.out).toBe(`matching\n${JSON.stringify({ answer: { interrupted: true }, heard: 1 })}\n`);
  });

  it("with no SIGINT listener, ends the process as Ctrl-C would", { timeout: 60_000 }, async () => {
    const r = await matcherProcess("{ timeoutMs: 600000, breakOnSigint: true }", false).done;
    expect(r.signal).toBe("SIGINT");
    expect(r.out).toBe("matching\n");
  });

  it("off (the default), lets the match run to its bound and the listener hear Ctrl-C after", { timeout: 60_000 }, async () => {
    const r = await matcherProcess("{ timeoutMs: 1500 }", true).done;
    expect(r.code).toBe(0);
    expect(r.out).toBe(`matching\n${JSON.stringify({ answer: { timeoutMs: 1500 }, heard: 1 })}\n`);
  });
});

describe("judgeRow", () => {
  it("makes an interrupted match the fault pattern-interrupted, never a met or unmet check", () => {
    const row: AcceptanceRow = { id: "S1.1", run: "true", expect: { exit: 0, stdout_contains: [], stdout_matches: ["x"], count: [] } };
    const result: ShellResult = { exit: 0, signal: null, timedOut: false, stdout: "x", stderr: "", durationMs: 1, truncated: false };
    // A matcher whose user stopped it: the answer `nodePatterns` gives after a Ctrl-C.
    const judged = judgeRow(row, result, { atLeast: () => ({ interrupted: true }) });
    expect(judged._unsafeUnwrapErr()).toEqual({ code: "pattern-interrupted", row: "S1.1", pattern: "x" });
  });
});

describe("decay run, Ctrl-C while an acceptance regex backtracks", () => {
  it("parks the run at once (exit 1, RESUME.md) instead of waiting out --pattern-timeout-ms", { timeout: 120_000 }, async () => {
    const repo = await makeRepo({});
    const marker = join(mkdtempSync(join(tmpdir(), "decay-sigint-")), "matching");
    await contractOf(repo, planOf([["evil", [`\`touch ${marker} && printf ${LONG}\` exits 0 and matches /${EVIL}/`]]]), "evil");
    const run = start(["run", "docs/evil.plan.md", "--agent", agentFlag(), "--pattern-timeout-ms", "600000"], repo);
    interruptWhen(run.child, () => existsSync(marker));
    // Should the interrupt not take, the run is killed when the test gives up, not left matching.
    onTestFinished(() => void run.child.kill("SIGKILL"));
    const r = await run.done;
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n").slice(-2)).toEqual(["parked: interrupted at step preflight; RESUME.md written; run the same command again to resume", ""]);
    expect(existsSync(join(repo, ".plan-runs/evil/RESUME.md"))).toBe(true);
  });
});
