import { execFileSync } from "node:child_process";
import { link, lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { A, B, run, sampleTree, sha256 } from "../../test/support/author-tree.js";

describe("plan-decay author", () => {
  test("writes unchanged rows for reads and edits, absent rows for creates, and the plan then holds", async () => {
    const dir = await sampleTree();
    const argv = ["author", "--root", "tree", "--reads", "src/a.ts", "--edits", "src/b.ts", "--creates", "src/c.ts", "-o", "plan.tsv"];
    expect(await run(dir, argv)).toEqual({ code: 0, stdout: "", stderr: "" });
    const rows = (await readFile(join(dir, "plan.tsv"), "utf8")).split("\n").filter((l) => l !== "" && !l.startsWith("#"));
    expect(rows).toEqual(expect.arrayContaining([`unchanged\tsrc/a.ts\t${sha256(A)}`, `unchanged\tsrc/b.ts\t${sha256(B)}`, "absent\tsrc/c.ts"]));
    expect(rows).toHaveLength(3);
    expect((await run(dir, ["--root", "tree", "plan.tsv"])).code).toBe(0);
    await writeFile(join(dir, "tree", "src", "b.ts"), `${B}// edited by a sibling\n`);
    expect((await run(dir, ["--root", "tree", "plan.tsv"])).code).toBe(1);
  });

  test("without -o the assumptions file goes to stdout", async () => {
    const dir = await sampleTree();
    const r = await run(dir, ["author", "--root", "tree", "--creates", "src/c.ts"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toContain("absent\tsrc/c.ts");
  });

  test("a create that already exists, or exists in another case, is a fault: exit 2 and nothing written", async () => {
    const dir = await sampleTree();
    await writeFile(join(dir, "plan.tsv"), "# the previous plan\n");
    for (const create of ["src/a.ts", "src/A.ts"]) {
      const r = await run(dir, ["author", "--root", "tree", "--reads", "src/b.ts", "--creates", create, "-o", "plan.tsv"]);
      expect([create, r.code, r.stdout]).toEqual([create, 2, ""]);
      expect(r.stderr).toMatch(/^error: .*src\/a\.ts/);
    }
    expect(await readFile(join(dir, "plan.tsv"), "utf8")).toBe("# the previous plan\n");
    expect((await readdir(dir)).sort()).toEqual(["plan.tsv", "tree"]);
  });

  test("an unwritable -o is exit 2 and leaves no temp file behind", async () => {
    const dir = await sampleTree();
    const r = await run(dir, ["author", "--root", "tree", "--reads", "src/a.ts", "-o", "missing-dir/plan.tsv"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write missing-dir\/plan\.tsv: no such file or directory/);
    expect((await readdir(dir)).sort()).toEqual(["tree"]);
  });

  test("-o - writes to standard output and creates no file named -", async () => {
    const dir = await sampleTree();
    const r = await run(dir, ["author", "--root", "tree", "--creates", "src/c.ts", "-o", "-"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toContain("absent\tsrc/c.ts");
    expect((await readdir(dir)).sort()).toEqual(["tree"]);
  });

  test("-o over a FIFO, a symbolic link or a directory is a fault naming it, the target untouched", async () => {
    const dir = await sampleTree();
    execFileSync("mkfifo", [join(dir, "fifo")]);
    await writeFile(join(dir, "real"), "keep\n");
    await symlink("real", join(dir, "link"));
    await mkdir(join(dir, "sub"));
    for (const [target, what] of [
      ["fifo", "a FIFO \\(named pipe\\)"],
      ["link", "a symbolic link"],
      ["sub", "a directory"],
    ] as const) {
      const r = await run(dir, ["author", "--root", "tree", "--creates", "src/c.ts", "-o", target]);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toMatch(new RegExp(`^error: cannot write ${target}: it is ${what}; only a regular file is replaced`));
    }
    expect((await lstat(join(dir, "fifo"))).isFIFO()).toBe(true);
    expect(await readlink(join(dir, "link"))).toBe("real");
    expect(await readFile(join(dir, "real"), "utf8")).toBe("keep\n");
    expect((await readdir(dir)).sort()).toEqual(["fifo", "link", "real", "sub", "tree"]);
  });

  test("a read that does not exist is a fault, not a row", async () => {
    const dir = await sampleTree();
    const r = await run(dir, ["author", "--root", "tree", "--reads", "src/nope.ts"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  test("-o naming a file it reads (--reads or --edits), however spelled, is refused naming both options; the file is untouched", async () => {
    const dir = await sampleTree();
    await link(join(dir, "tree", "src", "a.ts"), join(dir, "hard.ts"));
    await symlink(join("tree", "src"), join(dir, "alias"));
    const cases = [
      ["tree/src/a.ts", "--reads src/a.ts (tree/src/a.ts)"],
      ["./tree/src/a.ts", "--reads src/a.ts (tree/src/a.ts)"],
      [join(dir, "tree", "src", "a.ts"), "--reads src/a.ts (tree/src/a.ts)"],
      ["tree/src/../src/a.ts", "--reads src/a.ts (tree/src/a.ts)"],
      ["hard.ts", "--reads src/a.ts (tree/src/a.ts)"],
      ["alias/a.ts", "--reads src/a.ts (tree/src/a.ts)"],
      ["tree/src/b.ts", "--edits src/b.ts (tree/src/b.ts)"],
      ["alias/b.ts", "--edits src/b.ts (tree/src/b.ts)"],
    ] as const;
    for (const [target, input] of cases) {
      const r = await run(dir, ["author", "--root", "tree", "--reads", "src/a.ts", "--edits", "src/b.ts", "--creates", "src/c.ts", "-o", target]);
      expect({ target, ...r }).toEqual({
        target,
        code: 2,
        stdout: "",
        stderr: `error: cannot write ${target}: -o names the same file as ${input}, a file this run read; writing it would replace that file (nothing was written)\n`,
      });
    }
    expect(await readFile(join(dir, "tree", "src", "a.ts"), "utf8")).toBe(A);
    expect(await readFile(join(dir, "tree", "src", "b.ts"), "utf8")).toBe(B);
    expect((await readdir(join(dir, "tree", "src"))).sort()).toEqual(["a.ts", "b.ts"]);
    expect((await readdir(dir)).sort()).toEqual(["alias", "hard.ts", "tree"]);
  });

  test("with --root . the read path itself is refused; a copy of it, or a new file beside it, is written", async () => {
    const dir = await sampleTree();
    const root = join(dir, "tree");
    const refused = await run(root, ["author", "--root", ".", "--reads", "src/a.ts", "-o", "src/a.ts"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "error: cannot write src/a.ts: -o names the same file as --reads src/a.ts (src/a.ts), a file this run read; writing it would replace that file (nothing was written)\n",
    );
    expect(await readFile(join(root, "src", "a.ts"), "utf8")).toBe(A);
    await writeFile(join(dir, "copy.ts"), A);
    for (const target of ["../copy.ts", "plan.tsv"]) {
      expect(await run(root, ["author", "--root", ".", "--reads", "src/a.ts", "-o", target])).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(await readFile(join(root, target), "utf8")).toContain(`unchanged\tsrc/a.ts\t${sha256(A)}`);
    }
  });
});
