import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseInvocation, splitCommand } from "./args.js";

const shQuote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;

describe("splitCommand", () => {
  test("splits as sh does: quotes, escapes, runs of blanks", () => {
    expect(splitCommand(`node  "my agent.mjs" --x='a b' c\\ d ""`)._unsafeUnwrap()).toEqual(["node", "my agent.mjs", "--x=a b", "c d", ""]);
    expect(splitCommand(`a "b`)._unsafeUnwrapErr()).toBe('an unclosed " quote');
    expect(splitCommand("   ")._unsafeUnwrapErr()).toBe("no command");
  });

  test("any words, each quoted for sh and joined, split back into the same words", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (words) => {
        expect(splitCommand(words.map(shQuote).join(" "))._unsafeUnwrap()).toEqual(words);
      }),
    );
  });

  test("never throws", () => {
    fc.assert(fc.property(fc.string(), (text) => void splitCommand(text)));
  });
});

describe("parseInvocation", () => {
  test("reads run's flags, with defaults", () => {
    const inv = parseInvocation([
      "run",
      "p.md",
      "--agent",
      "node a.mjs s.json",
      "--budget",
      "4",
      "--token-target",
      "9000",
      "--include-optional",
    ])._unsafeUnwrap();
    expect(inv).toEqual({
      command: "run",
      flags: {
        file: "p.md",
        repo: undefined,
        includeOptional: true,
        cleanRoom: "clone",
        setup: undefined,
        assumptions: undefined,
        json: false,
        agent: ["node", "a.mjs", "s.json"],
        budget: 4,
        tokenTarget: 9000,
        executeMayEditSurface: false,
      },
    });
    const allowed = parseInvocation(["run", "p.md", "--agent", "a", "--execute-may-edit-surface"])._unsafeUnwrap();
    expect(allowed).toMatchObject({ command: "run", flags: { executeMayEditSurface: true } });
    expect(parseInvocation(["verify", "p.md", "--execute-may-edit-surface"])._unsafeUnwrapErr()).toMatchObject({
      code: "usage",
      flag: "--execute-may-edit-surface",
    });
  });

  test("reads --pattern-timeout-ms on run, preflight and verify; unset, the adapter's default stands", () => {
    for (const argv of [
      ["verify", "p.md"],
      ["preflight", "p.md"],
      ["run", "p.md", "--agent", "a"],
    ]) {
      expect(parseInvocation([...argv, "--pattern-timeout-ms", "250"])._unsafeUnwrap()).toMatchObject({ flags: { patternTimeoutMs: 250 } });
      expect(parseInvocation(argv)._unsafeUnwrap()).not.toHaveProperty("flags.patternTimeoutMs");
    }
  });

  test("reads --agent-timeout-ms on run only; unset, the agent's default stands", () => {
    expect(parseInvocation(["run", "p.md", "--agent", "a", "--agent-timeout-ms", "250"])._unsafeUnwrap()).toMatchObject({ flags: { agentTimeoutMs: 250 } });
    expect(parseInvocation(["run", "p.md", "--agent", "a"])._unsafeUnwrap()).not.toHaveProperty("flags.agentTimeoutMs");
    expect(parseInvocation(["verify", "p.md", "--agent-timeout-ms", "250"])._unsafeUnwrapErr()).toMatchObject({ code: "usage", flag: "--agent-timeout-ms" });
    expect(parseInvocation(["run", "p.md", "--agent", "a", "--agent-timeout-ms=0"])._unsafeUnwrapErr()).toEqual({
      code: "usage",
      flag: "--agent-timeout-ms",
      message: '--agent-timeout-ms must be a positive integer, not "0"',
    });
  });

  test.each(["0", "-5", "1.5", "1e3", "ten", "1000000000"])("--pattern-timeout-ms %j is a usage fault naming the flag", (value) => {
    expect(parseInvocation(["verify", "p.md", `--pattern-timeout-ms=${value}`])._unsafeUnwrapErr()).toEqual({
      code: "usage",
      flag: "--pattern-timeout-ms",
      message: `--pattern-timeout-ms must be a positive integer, not ${JSON.stringify(value)}`,
    });
  });

  test.each([
    [["run", "p.md"], "--agent"],
    [["run", "p.md", "--agent", "x", "--token-target", "0"], "--token-target"],
    [["run", "p.md", "--agent", "'x"], "--agent"],
    [["report", "a", "b"], "b"],
    [["report", "d", "--repo", "x"], "--repo"],
    [["run", "p.md", "--agent"], "--agent"],
    [["frobnicate", "x"], "command"],
  ])("%j is a usage fault naming %s", (argv, flag) => {
    expect(parseInvocation(argv)._unsafeUnwrapErr()).toMatchObject({ code: "usage", flag });
  });
});

describe("the shared parser's faults", () => {
  test.each([
    [["report", "d", "--nope"], "--nope", "unknown option --nope"],
    [["report", "d", "--json", "--json"], "--json", "--json was given more than once"],
    [["run", "p.md", "--repo"], "--repo", "--repo needs a value"],
    [["report", "d", "--json=no"], "--json", '--json takes no value, but was given "no"'],
    [["report", "d", "e"], "e", 'unexpected argument "e"'],
    [["report", "d", "--repo", "r"], "--repo", "--repo is not an option of decay report"],
    [["report", ""], "report", 'decay report takes one DIR, given an empty argument ("")'],
    [["run", "", "--agent", "x"], "run", 'decay run takes one PLAN.md or contract.md, given an empty argument ("")'],
    [["preflight", "--", ""], "preflight", 'decay preflight takes one PLAN.md or contract.md, given an empty argument ("")'],
    [["verify", ""], "verify", 'decay verify takes one PLAN.md or contract.md, given an empty argument ("")'],
  ])("%j names %s", (argv, flag, message) => {
    expect(parseInvocation(argv)._unsafeUnwrapErr()).toEqual({ code: "usage", flag, message });
  });

  test("any argv is an invocation or a usage fault naming a flag, never a throw", () => {
    const token = fc.oneof(fc.constantFrom("run", "report", "verify", "--agent", "--repo", "--json", "--budget", "-h", "-V", "--", ""), fc.string());
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (argv) => {
        const r = parseInvocation(argv);
        if (r.isErr()) expect(r.error.flag.length + r.error.message.length).toBeGreaterThan(0);
        // An empty argument is never taken as the plan or the report's directory.
        else if (r.value.command === "report") expect(r.value.dir).not.toBe("");
        else if ("flags" in r.value) expect(r.value.flags.file).not.toBe("");
      }),
    );
  });
  test("a command named like an Object method is an unknown command, not a crash", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(parseInvocation([name, "x.md"])._unsafeUnwrapErr().message).toContain(`unknown command ${JSON.stringify(name)}`);
    }
  });
});

describe("--version takes nothing else", () => {
  test("alone, as -V, or after a command word it is asked", () => {
    for (const argv of [["--version"], ["-V"], ["run", "--version"]]) expect(parseInvocation(argv)._unsafeUnwrap()).toEqual({ command: "version" });
  });
  test.each([
    [["--version", "extra"], 'unexpected argument "extra"'],
    [["run", "plan.md", "--version"], 'unexpected argument "plan.md"'],
    [["--version", "--json"], "--json is not an option of decay --version"],
  ])("%j: %s", (argv, message) => {
    expect(parseInvocation(argv)._unsafeUnwrapErr()).toMatchObject({ code: "usage", message });
  });
});
