import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { memoryIo } from "../../test/support/memory-io.js";
import { main } from "../cli/main.js";
import { parseAssumptions } from "./parse.js";
import { MAX_PATH_COMPONENTS, parseAnyPath, parsePath } from "./path.js";

async function run(argv: string[], cwd: string, stdin?: string) {
  const m = memoryIo(stdin === undefined ? { cwd } : { cwd, stdin });
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

// A gate run over a tree holding only `src`, a regular file, with `plan` as its assumptions file.
async function againstFileSrc(plan: string, extra: string[] = []) {
  const dir = await tempDir();
  mkdirSync(join(dir, "r"));
  writeFileSync(join(dir, "r", "src"), "hello\n");
  writeFileSync(join(dir, "plan.tsv"), plan);
  return run(["--root", "r", ...extra, "plan.tsv"], dir);
}

describe("a path of millions of components: answered, never a stack overflow", () => {
  const deep = `${"a/".repeat(4_000_000)}b`;
  test("a plain row of 4,000,000 components parses to itself", () => {
    const rows = parseAssumptions(`exists\t${deep}\n`)._unsafeUnwrap();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "exists", path: deep, directory: false });
  });
  test("the same depth through every rule (a `./` and a non-ASCII name take the long way)", () => {
    expect(parsePath(`./${deep}/\u00e9/.`)._unsafeUnwrap()).toEqual({ path: `${deep}/\u00e9`, directory: true });
    expect(parsePath(`${"./".repeat(4_000_000)}b`)._unsafeUnwrap()).toEqual({ path: "b", directory: false });
  });
  test("a word of 12,000,000 astral letters is checked for scripts (in a path, as in a literal)", () => {
    const gothic = "\u{10330}".repeat(12_000_000);
    const fault = parseAssumptions(`exists\t${gothic}a/x\n`)._unsafeUnwrapErr();
    expect(fault).toMatchObject({ code: "mixed-script", line: 1, field: "path", word: `${gothic}a` });
  });
  test("past MAX_PATH_COMPONENTS a path is refused (path-too-deep); at it, accepted", () => {
    const atLimit = `${"a/".repeat(MAX_PATH_COMPONENTS - 1)}a`;
    expect(parsePath(atLimit).isOk()).toBe(true);
    expect(parsePath(`${atLimit}/a`, 4)._unsafeUnwrapErr()).toMatchObject({
      code: "path-too-deep",
      line: 4,
      components: MAX_PATH_COMPONENTS + 1,
      limit: MAX_PATH_COMPONENTS,
    });
  });
  test("the gate, --digest and author each answer such a path: exit 1 or 2 with a message, no internal error", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "r", "a"), { recursive: true });
    writeFileSync(join(dir, "plan.tsv"), `exists\t${deep}\n`);
    const gate = await run(["--root", "r", "plan.tsv"], dir);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(/^DIVERGE line 1: exists a\/a\//);
    const digest = await run(["--root", "r", "--digest", deep], dir);
    expect([digest.code, digest.stderr]).toEqual([2, `error: "${deep.slice(0, 80)}"… (8000001 characters) does not exist\n`]);
    const author = await run(["author", "--root", "r", "--creates", deep], dir);
    expect(author.code).toBe(0);
    expect(author.stdout).toContain(`\nabsent\t${deep}\n`);
  });
});

describe("a last component `.` names a directory, as a trailing `/` does", () => {
  // Paths built from what the path rules turn on, each followed by `/.` or `/`.
  const pathish = fc
    .array(fc.constantFrom("a", "B", "0", ".", "..", "/", "//", " ", "C:", "\\", "\u00e9", "e\u0301", "\u{10330}"), { maxLength: 8 })
    .map((parts) => parts.join(""));
  test("property: `p/.` and `p/` parse to the same belief, or to the same refusal", () => {
    fc.assert(
      fc.property(pathish, fc.constantFrom("", "/.", "/./", "/.//."), (p, more) => {
        const dot = parsePath(`${p}/.${more}`, 3);
        const slash = parsePath(`${p}/`, 3);
        if (slash.isOk()) expect(dot._unsafeUnwrap()).toEqual({ ...slash.value, directory: true });
        else expect(dot._unsafeUnwrapErr().code).toBe(slash.error.code);
        expect(parsePath(`${p}/.`, 3)).toEqual(parseAnyPath(`${p}/.`, 3));
      }),
      { numRuns: 2000 },
    );
  });
  test("rows: exists keeps the flag; a file kind is refused for `src/.` as for `src/`", () => {
    expect(parseAssumptions("exists\tsrc/.\n")._unsafeUnwrap()).toEqual([{ line: 1, kind: "exists", path: "src", directory: true }]);
    expect(parseAssumptions("absent\tsrc/./.\n")._unsafeUnwrap()).toEqual([{ line: 1, kind: "absent", path: "src", directory: true }]);
    expect(parseAssumptions("contains\tsrc/.\thello\n")._unsafeUnwrapErr()).toEqual({
      code: "path-directory-for-file",
      line: 1,
      kind: "contains",
      path: "src/.",
    });
    expect(parsePath("src/.a")._unsafeUnwrap()).toEqual({ path: "src/.a", directory: false });
    expect(parsePath("./src")._unsafeUnwrap()).toEqual({ path: "src", directory: false });
  });
  test("the gate over a regular file `src`: `exists src/.` diverges, `contains src/.` and `--digest src/.` are refused", async () => {
    const exists = await againstFileSrc("exists\tsrc/.\n");
    expect(exists.code).toBe(1);
    expect(exists.stdout).toMatch(/^DIVERGE line 1: exists src\/ - present but not a directory/);
    const contains = await againstFileSrc("contains\tsrc/.\thello\n");
    expect([contains.code, contains.stderr]).toEqual([2, 'error: line 1: contains names a file, but the path "src/." names a directory: it ends with "/."\n']);
    const dir = await tempDir();
    mkdirSync(join(dir, "r"));
    writeFileSync(join(dir, "r", "src"), "hello\n");
    const digest = await run(["--root", "r", "--digest", "src/."], dir);
    expect([digest.code, digest.stdout]).toEqual([2, ""]);
    expect(digest.stderr).toMatch(/names a directory/);
  });
});
