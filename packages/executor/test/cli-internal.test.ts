// A command that throws (a bug) is exit 2 with one line on stderr naming its input, never a
// silent exit: through the built bin on a real plan that makes the plan reader throw, and through
// main for any command, whatever throws.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";
import { decay } from "./cli-process.js";
import { makeRepo } from "./harness.js";

describe("decay: a command that throws is an internal error naming its input", () => {
  let repo: string;
  beforeAll(async () => {
    repo = await makeRepo({});
    // Millions of list markers on one line: the plan reader (decay-contract's) runs out of stack
    // on it (review finding 11); any throw reaches the same handler.
    const deep = `# P\n\n## Recommendation\n\n### Stage 1: a\n\nAcceptance: \`true\` exits 0.\n\n${"- ".repeat(2_500_000)}x\n`;
    writeFileSync(join(repo, "deep.plan.md"), deep);
  });

  it.each([[["preflight", "deep.plan.md"]], [["verify", "deep.plan.md", "--json"]], [["run", "deep.plan.md", "--agent", "true"]]])(
    "decay %j exits 2 with one line on stderr and nothing on stdout",
    async (args) => {
      const ran = await decay(args, repo);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/^decay: deep\.plan\.md: internal error: RangeError: Maximum call stack size exceeded\n$/);
      expect(ran.stdout).toBe("");
    },
  );
});

/** Streams that keep what is written, and a working directory that throws when a command asks for it. */
function throwingIo(): { io: CliIo; err: string[]; out: string[] } {
  const err: string[] = [];
  const out: string[] = [];
  const io: CliIo = {
    stdin: (async function* () {})(),
    stdout: { write: (t) => void out.push(t) },
    stderr: { write: (t) => void err.push(t) },
    env: {},
    get cwd(): string {
      throw new TypeError("cwd\nis gone");
    },
  };
  return { io, err, out };
}

describe("main: whatever a command throws is caught and said on one line", () => {
  it.each([
    [["report", "ws", "--json"], "decay: ws: internal error: TypeError: cwd\\nis gone\n"],
    [["verify", "p.md", "--json"], "decay: p.md: internal error: TypeError: cwd\\nis gone\n"],
  ])("decay %j", async (argv, line) => {
    const { io, err, out } = throwingIo();
    expect(await main(argv, io)).toBe(2);
    expect(err.join("")).toBe(line);
    expect(out).toEqual([]);
  });
});
