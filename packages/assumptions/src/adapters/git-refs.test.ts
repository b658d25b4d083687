// Refs read as git reads them: a loose ref holds an object id or `ref: TARGET`; a packed-refs
// line an id and a name. What git calls a broken ref is refused, naming it, never followed as if
// it were another name. Each repository is made with system git, whose answer is checked first.
import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { gitTree } from "./git.js";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";

/** main: c1 (a.txt) ← c2 (a.txt b.txt); lightweight tag v1 on c1. */
async function repo(): Promise<{ dir: string; c1: string; c2: string }> {
  const dir = join(await scratchDir(), "r");
  commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
  const c1 = git(dir, "rev-parse", "HEAD");
  git(dir, "tag", "v1");
  nodeFs.writeFileSync(join(dir, "b.txt"), "b\n");
  git(dir, "add", "b.txt");
  git(dir, "commit", "-q", "-m", "b");
  return { dir, c1, c2: git(dir, "rev-parse", "HEAD") };
}

const gitNames = (dir: string, ref: string): string | undefined => {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "--verify", "-q", `${ref}^{commit}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
};
const rootNames = async (dir: string, ref: string) => (await gitTree({ fs: nodeFs, dir, ref }).list(""))._unsafeUnwrap().map((e) => e.name);
const fault = async (dir: string, ref: string) => (await gitTree({ fs: nodeFs, dir, ref }).list(""))._unsafeUnwrapErr();

describe("broken refs are refused, never read as another name", () => {
  test("a loose ref holding a ref name without `ref: ` (git: broken) is not followed to that name", async () => {
    const { dir } = await repo();
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/main"), "v1\n");
    expect(gitNames(dir, "main")).toBeUndefined();
    const got = await fault(dir, "main");
    expect(got.code).toBe("tree-io");
    expect(got.message).toBe(
      `cannot read the tree root: the ref refs/heads/main in ${join(dir, ".git")} is broken: it holds neither an object id nor "ref: <name>"`,
    );
  });

  test("a packed-refs line whose value is not an object id is refused (git: unexpected line)", async () => {
    const { dir } = await repo();
    git(dir, "pack-refs", "--all");
    nodeFs.writeFileSync(join(dir, ".git/packed-refs"), "# pack-refs with: peeled fully-peeled sorted \nv1 refs/heads/main\n");
    expect(gitNames(dir, "main")).toBeUndefined();
    expect((await fault(dir, "main")).message).toContain(`${join(dir, ".git")}/packed-refs has a line git does not read: "v1 refs/heads/main"`);
  });

  test("a symbolic ref pointing outside refs/ is refused; a loop of symbolic refs is refused", async () => {
    const { dir } = await repo();
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/out"), "ref: ../../config\n");
    expect(gitNames(dir, "out")).toBeUndefined();
    expect((await fault(dir, "out")).message).toContain("the ref refs/heads/out in");
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/x"), "ref: refs/heads/y\n");
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/y"), "ref: refs/heads/x\n");
    expect(gitNames(dir, "x")).toBeUndefined();
    expect((await fault(dir, "x")).code).toBe("tree-io");
  });
});

describe("HEAD", () => {
  test("a HEAD pointing outside refs/ is refused, never looked up as a name or read as a file", async () => {
    const { dir, c1 } = await repo();
    nodeFs.writeFileSync(join(dir, "outside"), `${c1}\n`);
    for (const head of ["ref: ../outside", "ref: v1"]) {
      nodeFs.writeFileSync(join(dir, ".git/HEAD"), `${head}\n`);
      expect(() => execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { stdio: "ignore" })).toThrow();
      const got = await fault(dir, "HEAD");
      expect(got.code, head).toBe("tree-io");
      expect(got.message).toBe(`cannot read the tree root: ${join(dir, ".git", "HEAD")} is broken: ${JSON.stringify(head.slice(5))} is not a ref under refs/`);
    }
  });
});

describe("shallow commits", () => {
  test("a commit listed in .git/shallow has no parents, as git reads it, even where its parent is in the store", async () => {
    const { dir, c2 } = await repo();
    nodeFs.writeFileSync(join(dir, ".git/shallow"), `${c2}\n`);
    expect(gitNames(dir, "HEAD~1")).toBeUndefined();
    expect(await rootNames(dir, "HEAD")).toEqual(["a.txt", "b.txt"]);
    expect((await fault(dir, "HEAD~1")).message).toBe(`git ref "HEAD~1" walks past the root commit ${c2}, which has no parent`);
    expect(await rootNames(dir, "v1")).toEqual(["a.txt"]);
  });
});

describe("refs git reads are read the same", () => {
  test("an id with trailing text after a space, upper-case hex, a symbolic ref, packed and peeled lines", async () => {
    const { dir, c1, c2 } = await repo();
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/fetched"), `${c1}\tbranch 'x' of somewhere\n`);
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/upper"), `${c1.toUpperCase()}\n`);
    nodeFs.writeFileSync(join(dir, ".git/refs/heads/sym"), "ref: refs/tags/v1\n");
    git(dir, "tag", "-a", "-m", "annotated", "v2", c2);
    git(dir, "pack-refs", "--all");
    for (const ref of ["fetched", "upper", "sym", "v1", "v2", "main", "refs/heads/main", "HEAD"]) {
      const want = gitNames(dir, ref);
      expect(want, ref).toBeDefined();
      expect(await rootNames(dir, ref), ref).toEqual(want === c1 ? ["a.txt"] : ["a.txt", "b.txt"]);
    }
  });

  test("a name whose refs/ candidate is a directory is looked for further, as git does", async () => {
    const { dir, c1 } = await repo();
    git(dir, "tag", "heads", c1);
    git(dir, "branch", "tags/x", c1);
    expect(gitNames(dir, "heads")).toBe(c1);
    expect(await rootNames(dir, "heads")).toEqual(["a.txt"]);
  });
});

describe("any ref file content", () => {
  test("a commit only when git names the same one; otherwise a fault", async () => {
    const { dir, c1, c2 } = await repo();
    const trees: Record<string, string[]> = { [c1]: ["a.txt"], [c2]: ["a.txt", "b.txt"] };
    const id = fc.constantFrom(c1, c2, c1.toUpperCase(), c2.slice(0, 39), `${c1}0`);
    const name = fc.constantFrom("refs/heads/main", "refs/tags/v1", "refs/heads/r", "refs/tags/r", "main", "v1", "../x", "refs/heads/../main", "HEAD");
    const content = fc.oneof(
      id,
      id.map((i) => `${i}\n`),
      fc.tuple(id, fc.constantFrom(" ", "\t", "x", "\n junk")).map(([i, t]) => i + t),
      fc.tuple(fc.constantFrom("ref: ", "ref:", "ref:  ", "ref:\t", "ref "), name).map(([r, n]) => `${r}${n}\n`),
      name,
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(content, fc.option(content, { nil: undefined }), async (branch, tag) => {
        nodeFs.writeFileSync(join(dir, ".git/refs/heads/r"), branch);
        if (tag === undefined) nodeFs.rmSync(join(dir, ".git/refs/tags/r"), { force: true });
        else nodeFs.writeFileSync(join(dir, ".git/refs/tags/r"), tag);
        const want = gitNames(dir, "r");
        const got = await gitTree({ fs: nodeFs, dir, ref: "r" }).list("");
        if (got.isOk()) expect(got.value.map((e) => e.name)).toEqual(want === undefined ? "git names no commit" : trees[want]);
      }),
      { numRuns: 150 },
    );
  });
});
