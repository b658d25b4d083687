// A command that throws (a bug) is exit 2 with one line on stderr naming its input, never a
// silent exit: main catches whatever a command throws.
import { describe, expect, it } from "vitest";
import type { CliIo } from "../src/cli/io.js";
import { main } from "../src/cli/main.js";
import { CLI_FAULT_SCHEMA_ID } from "../src/index.js";

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
    [["report", "ws"], "ws: internal error: TypeError: cwd\\nis gone"],
    [["verify", "p.md"], "p.md: internal error: TypeError: cwd\\nis gone"],
  ])("decay %j", async (argv, message) => {
    const { io, err, out } = throwingIo();
    expect(await main(argv, io)).toBe(2);
    expect(err.join("")).toBe(`decay: ${message}\n`);
    expect(out).toEqual([]);
  });

  it.each([
    [["report", "ws", "--json"], "ws: internal error: TypeError: cwd\\nis gone"],
    [["verify", "--json", "p.md"], "p.md: internal error: TypeError: cwd\\nis gone"],
  ])("decay %j: the fault object on stdout too, code internal", async (argv, message) => {
    const { io, err, out } = throwingIo();
    expect(await main(argv, io)).toBe(2);
    expect(err.join("")).toBe(`decay: ${message}\n`);
    expect(out.map((line) => JSON.parse(line))).toEqual([{ $schema: CLI_FAULT_SCHEMA_ID, version: 1, fault: { code: "internal", message } }]);
  });
});
