import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseArgs } from "./args.js";

function code(argv: string[]): string {
  const r = parseArgs(argv);
  return r.isErr() ? r.error.code : `ok:${r.value.kind}`;
}

describe("parseArgs: checking", () => {
  test("--root DIR FILE is a check with human output", () => {
    expect(parseArgs(["--root", "tree", "plan.tsv"])._unsafeUnwrap()).toEqual({
      kind: "check",
      root: "tree",
      input: "plan.tsv",
      output: "human",
    });
  });

  test("--root=DIR, - for stdin, --ref and --json are read", () => {
    expect(parseArgs(["--root=tree", "--ref", "HEAD", "--json", "-"])._unsafeUnwrap()).toEqual({
      kind: "check",
      root: "tree",
      input: "-",
      ref: "HEAD",
      output: "json",
    });
  });

  test("--format github selects annotations; any other format is refused", () => {
    expect(parseArgs(["--root", "t", "--format", "github", "p"])._unsafeUnwrap()).toMatchObject({ output: "github" });
    expect(code(["--root", "t", "--format", "gitlab", "p"])).toBe("usage-bad-value");
  });

  test("--root is required and may not be empty", () => {
    expect(code(["plan.tsv"])).toBe("usage-missing-root");
    expect(code(["--root", "", "plan.tsv"])).toBe("usage-empty-root");
    expect(code(["--root=", "plan.tsv"])).toBe("usage-empty-root");
  });

  test("a value that is itself a flag does not count as the value", () => {
    expect(code(["--root", "--json", "plan.tsv"])).toBe("usage-missing-value");
    expect(code(["plan.tsv", "--root"])).toBe("usage-missing-value");
  });

  test("unknown flags, repeats, missing or extra files are usage faults", () => {
    expect(code(["--root", "t", "--nope", "p"])).toBe("usage-unknown-flag");
    expect(code(["--root", "t", "-x", "p"])).toBe("usage-unknown-flag");
    expect(code(["--root", "t", "--root", "u", "p"])).toBe("usage-repeated-flag");
    expect(code(["--root", "t"])).toBe("usage-missing-input");
    expect(code(["--root", "t", "p", "q"])).toBe("usage-extra-argument");
    expect(code(["--root", "t", "--json=yes", "p"])).toBe("usage-unexpected-value");
  });

  test("--json and --format github cannot both shape stdout", () => {
    expect(code(["--root", "t", "--json", "--format", "github", "p"])).toBe("usage-conflict");
  });

  test("-- ends the flags, so a file named like a flag can be checked", () => {
    expect(parseArgs(["--root", "t", "--", "--weird.tsv"])._unsafeUnwrap()).toMatchObject({ input: "--weird.tsv" });
  });
});

describe("parseArgs: digest, help, version", () => {
  test("--digest PATH is a digest; with an assumptions file it is refused", () => {
    expect(parseArgs(["--root", "t", "--digest", "src/a.ts"])._unsafeUnwrap()).toEqual({
      kind: "digest",
      root: "t",
      path: "src/a.ts",
    });
    expect(code(["--root", "t", "--digest", "src/a.ts", "plan.tsv"])).toBe("usage-conflict");
    expect(code(["--root", "t", "--digest", "src/a.ts", "--json"])).toBe("usage-conflict");
    expect(code(["--digest", "src/a.ts"])).toBe("usage-missing-root");
  });

  test("--help and -h win over everything before --, even errors", () => {
    expect(code(["--help"])).toBe("ok:help");
    expect(code(["--nope", "-h"])).toBe("ok:help");
    // A word holding h beside a letter that is no flag is no request for help: a file named -hotfix.tsv.
    expect(code(["-hx"])).toBe("usage-unknown-flag");
    expect(code(["--root", "t", "-hotfix.tsv"])).toBe("usage-unknown-flag");
    expect(code(["author", "--help"])).toBe("ok:help");
    expect(code(["--root", "t", "--", "--help"])).toBe("ok:check");
  });

  test("--version prints the version", () => {
    expect(code(["--version"])).toBe("ok:version");
    expect(code(["author", "--version"])).toBe("ok:version");
  });

  test("--version takes nothing else: an extra argument or a flag it would ignore is a usage fault", () => {
    expect(code(["--version", "extra"])).toBe("usage-extra-argument");
    expect(code(["plan.tsv", "--version"])).toBe("usage-extra-argument");
    expect(code(["--version", "--nope"])).toBe("usage-unknown-flag");
    expect(code(["--version", "--root", "."])).toBe("usage-not-for-command");
    expect(code(["--version", "-h"])).toBe("ok:help");
  });
});

describe("parseArgs: author", () => {
  test("repeatable --reads/--edits/--creates and -o", () => {
    const argv = ["author", "--root", "t", "--reads", "a", "--edits", "b", "--reads", "c", "--creates", "d", "-o", "out.tsv"];
    expect(parseArgs(argv)._unsafeUnwrap()).toEqual({
      kind: "author",
      root: "t",
      reads: ["a", "c"],
      edits: ["b"],
      creates: ["d"],
      out: "out.tsv",
    });
  });

  test("author needs a root and at least one path; refuses stray arguments and check flags", () => {
    expect(code(["author", "--reads", "a"])).toBe("usage-missing-root");
    expect(code(["author", "--root", "t"])).toBe("usage-nothing-to-author");
    expect(code(["author", "--root", "t", "--reads", "a", "extra"])).toBe("usage-extra-argument");
    expect(code(["author", "--root", "t", "--reads", "a", "--json"])).toBe("usage-unknown-flag");
    expect(code(["author", "--root", "t", "--reads", "a", "-o", "x", "-o", "y"])).toBe("usage-repeated-flag");
  });

  test("a plan file named author is reached as ./author", () => {
    expect(parseArgs(["--root", "t", "./author"])._unsafeUnwrap()).toMatchObject({ kind: "check", input: "./author" });
  });
});

test("any argv gives a command or a usage fault, never a throw", () => {
  const token = fc.oneof(
    fc.constantFrom("--root", "--ref", "--json", "--format", "github", "--digest", "--help", "-h", "--version"),
    fc.constantFrom("author", "--reads", "--edits", "--creates", "-o", "--", "-", "", "--root=", "--x=1"),
    fc.string(),
  );
  fc.assert(
    fc.property(fc.array(token, { maxLength: 8 }), (argv) => {
      const r = parseArgs(argv);
      if (r.isErr()) expect(r.error.code).toMatch(/^usage-/);
      else if (r.value.kind === "check" || r.value.kind === "digest" || r.value.kind === "author") {
        expect(r.value.root).not.toBe("");
      }
    }),
  );
});
