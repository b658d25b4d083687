import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseInvocation } from "./args.js";

const detail = (argv: string[]) => {
  const r = parseInvocation(argv);
  return r.isErr() && r.error.code === "usage" ? r.error.detail : "ok";
};

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
  ])("%j: %s", (argv, message) => {
    expect(detail(argv)).toBe(message);
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
