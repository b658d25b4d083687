import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseInvocation } from "./args.js";

const detail = (argv: string[]) => {
  const r = parseInvocation(argv);
  return r.isErr() && r.error.code === "usage" ? r.error.detail : "ok";
};

describe("--version takes nothing else", () => {
  test("alone, with --json, or after a command word it is asked", () => {
    for (const argv of [["--version"], ["--version", "--json"], ["status", "--version"]])
      expect(parseInvocation(argv)._unsafeUnwrap()).toMatchObject({ command: "version" });
  });
  test.each([
    [["--version", "extra"], 'unexpected argument "extra"'],
    [["hash", "r.json", "--version"], 'unexpected argument "r.json"'],
    [["--version", "--home", "/h"], "--home is not an option of decay-evidence --version"],
  ])("%j: %s", (argv, message) => {
    expect(detail(argv)).toBe(message);
  });
});

describe("parseInvocation", () => {
  test("a command word anywhere among the flags; flags of every command in one pass", () => {
    expect(parseInvocation(["--json", "status", "--home", "/h"])._unsafeUnwrap()).toMatchObject({ command: "status", global: { home: "/h", json: true } });
    expect(parseInvocation(["hash", "r.json", "--body"])._unsafeUnwrap()).toMatchObject({ command: "hash", file: "r.json", body: true });
  });

  test.each([
    [["status", "--nope"], "unknown option --nope"],
    [["status", "--home"], "--home needs a value"],
    [["status", "--json", "--json"], "--json was given more than once"],
    [["status", "--json=1"], '--json takes no value, but was given "1"'],
    [["slug", "a", "b"], 'unexpected argument "b"'],
    [["status", "--body"], "--body is not an option of decay-evidence status"],
    [["slug"], "slug takes 1 argument(s), got 0"],
    [["--version", "extra", "junk"], 'unexpected argument "extra"'],
    [["--version", "--home", "/h"], "--home is not an option of decay-evidence --version"],
    [["hash", "r.json", "--repo", "/nonexistent"], "--repo is not an option of decay-evidence hash"],
    [["hash", "r.json", "--layout", "agentflow"], "--layout is not an option of decay-evidence hash"],
    [["slug", "P", "--max-input-bytes", "1"], "--max-input-bytes is not an option of decay-evidence slug"],
    [["slug", "P", "--home", "/h"], "--home is not an option of decay-evidence slug"],
    [["publish", "p.json"], "publish needs --github OWNER/REPO"],
    // Given but malformed: the value is named, not asked for again.
    [["publish", "p.json", "--github", "a/b/c"], '--github "a/b/c" is not OWNER/REPO (two names of letters, digits, _ . or -, one /)'],
    [["publish", "p.json", "--github", "a b/c"], '--github "a b/c" is not OWNER/REPO (two names of letters, digits, _ . or -, one /)'],
  ])("%j: %s", (argv, message) => {
    expect(detail(argv)).toBe(message);
  });

  test("each command takes the flags it uses: hash reads a bounded record, the store commands the store's flags", () => {
    expect(parseInvocation(["hash", "r.json", "--max-input-bytes", "10", "--json"])._unsafeUnwrap()).toMatchObject({ global: { maxInputBytes: 10 } });
    for (const command of [["prepare", "r.json"], ["status"], ["publish", "p.json", "--github", "o/r"]]) {
      const argv = [...command, "--home", "/h", "--layout", "agentflow", "--repo", "/r", "--max-input-bytes", "9", "--json"];
      expect(parseInvocation(argv)._unsafeUnwrap()).toMatchObject({ global: { home: "/h", layout: "agentflow", repo: "/r", maxInputBytes: 9, json: true } });
    }
    expect(parseInvocation(["--version", "--json"])._unsafeUnwrap()).toEqual({ command: "version", json: true });
    expect(parseInvocation(["slug", "P", "--help", "--home", "/h"])._unsafeUnwrap()).toMatchObject({ command: "help" });
  });

  test("any argv is an invocation or a usage fault, never a throw", () => {
    const token = fc.oneof(fc.constantFrom("status", "hash", "slug", "publish", "--json", "--home", "/h", "--body", "--github", "-h", "--"), fc.string());
    fc.assert(fc.property(fc.array(token, { maxLength: 8 }), (argv) => void parseInvocation(argv)));
  });
  test("a command named like an Object method is an unknown command, not a crash", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(JSON.stringify(parseInvocation([name, "x"])._unsafeUnwrapErr())).toContain(`unknown command \\"${name}\\"`);
    }
  });
});
