import { link, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { A, B, run, sampleTree as plainTree, sha256 } from "../../test/support/author-tree.js";
import { commitSpec, scratchDir } from "../../test/support/test-fixtures.js";
import { nodeTree } from "../node/tree.js";

// `author -o` never writes a file the plan it writes names: a create (its absent row would be
// false at once), nor, with --ref, a read or an edit (the plan describes the working copy it
// would replace). Real temp directories and a real repository; every spelling of the same file.

const EDITED = "export const a = 1; // the user's work, not committed\n";

/** `DIR/tree/src/{a,b}.ts`, and `alias`, a link to `tree/src` beside it. */
async function sampleTree(): Promise<string> {
  const dir = await plainTree();
  await symlink(join("tree", "src"), join(dir, "alias"));
  return dir;
}

/** Every spelling of `tree/src/NAME` from `dir`: as is, `./`, with `..`, absolute, through `alias`. */
function spellings(dir: string, name: string): string[] {
  return [`tree/src/${name}`, `./tree/src/${name}`, `tree/src/../src/${name}`, join(dir, "tree", "src", name), `alias/${name}`, `alias/../alias/${name}`];
}

/** Every entry under `dir` but `.git`, as path to text, link target or `dir`: to show nothing was written. */
async function snapshot(dir: string, under = ""): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = join(under, entry.name);
    if (entry.name === ".git") continue;
    if (entry.isSymbolicLink()) seen[path] = `-> ${await readlink(join(dir, path))}`;
    else if (entry.isDirectory()) Object.assign(seen, { [path]: "dir" }, await snapshot(dir, path));
    else seen[path] = await readFile(join(dir, path), "utf8");
  }
  return seen;
}

describe("plan-decay author -o=VALUE: the advice it is refused with works as written", () => {
  test.each(["-h", "--x.md", "out.md"])("-o=%s: each spelling offered writes the plan to that file", async (name) => {
    const dir = await sampleTree();
    const argv = ["author", "--root", "tree", "--reads", "src/a.ts"];
    const refused = await run(dir, [...argv, `-o=${name}`]);
    expect([refused.code, refused.stdout]).toEqual([2, ""]);
    const advice = /: write (.*) \(see plan-decay --help\)\n$/.exec(refused.stderr)?.[1] ?? "";
    expect(advice).toContain(`--output=${name}`);
    for (const spelling of advice.split(" or ")) {
      await rm(join(dir, name), { force: true });
      const r = await run(dir, [...argv, ...spelling.split(" ")]);
      expect([spelling, r.code, r.stdout]).toEqual([spelling, 0, ""]);
      expect(await readFile(join(dir, name), "utf8")).toContain("src/a.ts");
    }
  });
});

/**
 * Runs `author` with `argv` and `-o TARGET` for each case: each is refused, exit 2, with
 * `error: cannot write TARGET: -o names the same file as WHY (nothing was written)`.
 */
async function expectRefused(dir: string, argv: readonly string[], cases: readonly (readonly [string, string])[]): Promise<void> {
  const before = await snapshot(dir);
  for (const [target, why] of cases) {
    const r = await run(dir, [...argv, "-o", target]);
    const stderr = `error: cannot write ${target}: -o names the same file as ${why} (nothing was written)\n`;
    expect({ target, ...r }).toEqual({ target, code: 2, stdout: "", stderr });
  }
  expect(await snapshot(dir)).toEqual(before);
}

const CREATES = "a path the plan says is absent; writing the plan there would make its own absent row false before the work starts";

describe("plan-decay author -o: never a path the plan says it will create", () => {
  test("a --creates path, however spelled, is refused naming it; nothing is created", async () => {
    const dir = await sampleTree();
    const argv = ["author", "--root", "tree", "--reads", "src/a.ts", "--creates", "src/c.ts", "--creates", "gen/"];
    const cases = [
      ...spellings(dir, "c.ts").map((target) => [target, `--creates src/c.ts (tree/src/c.ts), ${CREATES}`] as const),
      ["tree/gen", `--creates gen/ (tree/gen/), ${CREATES}`] as const,
      ["./tree/src/../gen", `--creates gen/ (tree/gen/), ${CREATES}`] as const,
    ];
    await expectRefused(dir, argv, cases);
    expect(Object.keys(await snapshot(dir)).sort()).toEqual(["alias", "tree", "tree/src", "tree/src/a.ts", "tree/src/b.ts"]);
  });

  test("a symbolic link to a path to be created is refused as a link, and nothing is made where it points", async () => {
    const dir = await sampleTree();
    await symlink(join("tree", "src", "c.ts"), join(dir, "to-c"));
    const r = await run(dir, ["author", "--root", "tree", "--creates", "src/c.ts", "-o", "to-c"]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      "",
      "error: cannot write to-c: it is a symbolic link; only a regular file is replaced (nothing was written)\n",
    ]);
    expect(await readlink(join(dir, "to-c"))).toBe(join("tree", "src", "c.ts"));
    expect((await readdir(join(dir, "tree", "src"))).sort()).toEqual(["a.ts", "b.ts"]);
  });

  test("an embedder's own tree (openTree) is held to the same rule", async () => {
    const dir = await sampleTree();
    const openTree = (root: string) => nodeTree(join(dir, root));
    const r = await run(dir, ["author", "--root", "tree", "--creates", "src/c.ts", "-o", "alias/c.ts"], openTree);
    expect([r.code, r.stderr]).toEqual([
      2,
      `error: cannot write alias/c.ts: -o names the same file as --creates src/c.ts (tree/src/c.ts), ${CREATES} (nothing was written)\n`,
    ]);
    expect((await readdir(join(dir, "tree", "src"))).sort()).toEqual(["a.ts", "b.ts"]);
  });

  test("the same name in another directory, or a new file under --root the plan does not name, is written and the plan holds", async () => {
    const dir = await sampleTree();
    await mkdir(join(dir, "plans"));
    for (const target of ["plans/c.ts", "tree/plan.tsv"]) {
      const r = await run(dir, ["author", "--root", "tree", "--reads", "src/a.ts", "--creates", "src/c.ts", "-o", target]);
      expect([target, r]).toEqual([target, { code: 0, stdout: "", stderr: "" }]);
      expect(await readFile(join(dir, target), "utf8")).toContain("absent\tsrc/c.ts\n");
      expect((await run(dir, ["--root", "tree", target])).code).toBe(0);
    }
  });
});

/**
 * A repository at `DIR/tree` whose commit holds `src/{a,b,gone}.ts`; in the working tree `a.ts`
 * has uncommitted work and `gone.ts` is deleted. `alias` links to `tree/src`; `hard.ts` is a hard
 * link to `tree/src/b.ts`.
 */
async function repoTree(): Promise<string> {
  const dir = await scratchDir("plan-decay-author-ref-");
  commitSpec(join(dir, "tree"), { files: { "src/a.ts": A, "src/b.ts": B, "src/gone.ts": B }, links: {} });
  await writeFile(join(dir, "tree", "src", "a.ts"), EDITED);
  await rm(join(dir, "tree", "src", "gone.ts"));
  await symlink(join("tree", "src"), join(dir, "alias"));
  await link(join(dir, "tree", "src", "b.ts"), join(dir, "hard.ts"));
  return dir;
}

function pinned(option: string, given: string, ref: string): string {
  return `${option} ${given} (tree/${given}), a file the plan pins as unchanged (its digest taken from --ref ${ref}); writing it would replace the working copy of a file the plan describes`;
}

describe("plan-decay author --ref -o: never the working copy of a file the plan names", () => {
  const argv = ["author", "--root", "tree", "--ref", "HEAD", "--reads", "src/a.ts", "--reads", "src/gone.ts", "--edits", "src/b.ts", "--creates", "src/c.ts"];

  test("a read, an edit, a read deleted from the working tree, or a create, however spelled, is refused; the working files are untouched", async () => {
    const dir = await repoTree();
    const cases = [
      ...spellings(dir, "a.ts").map((target) => [target, pinned("--reads", "src/a.ts", "HEAD")] as const),
      ...spellings(dir, "b.ts").map((target) => [target, pinned("--edits", "src/b.ts", "HEAD")] as const),
      ["hard.ts", pinned("--edits", "src/b.ts", "HEAD")] as const,
      ...spellings(dir, "gone.ts").map((target) => [target, pinned("--reads", "src/gone.ts", "HEAD")] as const),
      ...spellings(dir, "c.ts").map((target) => [target, `--creates src/c.ts (tree/src/c.ts), ${CREATES}`] as const),
    ];
    await expectRefused(dir, argv, cases);
    expect(await readFile(join(dir, "tree", "src", "a.ts"), "utf8")).toBe(EDITED);
  });

  test("a file beside the plan's files is written, and the plan holds at the ref", async () => {
    const dir = await repoTree();
    for (const target of ["tree/plan.tsv", "alias/plan.tsv"]) {
      const r = await run(dir, [...argv, "-o", target]);
      expect([target, r]).toEqual([target, { code: 0, stdout: "", stderr: "" }]);
      const plan = await readFile(join(dir, target), "utf8");
      expect(plan).toContain(`unchanged\tsrc/a.ts\t${sha256(A)}\n`);
      expect((await run(dir, ["--root", "tree", "--ref", "HEAD", target])).code).toBe(0);
    }
  });
});
