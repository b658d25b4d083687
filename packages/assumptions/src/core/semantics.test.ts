import * as nodeFs from "node:fs";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { gitTree } from "../adapters/git.js";
import { faultyTree } from "../testing/faulty.js";
import type { TreeFs } from "../adapters/fs.js";
import { memfsTree } from "../adapters/memfs.js";
import { nodeTree } from "../node/tree.js";
import { commitSpec, git } from "../../test/support/test-fixtures.js";
import type { TreeReader } from "../tree.js";
import { checkTree } from "./check.js";
import { describeFault } from "./describe.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { parseAssumptions } from "./parse.js";

async function outcome(t: TreeReader, plan: string) {
  const got = await checkTree({ tree: t, assumptions: parseAssumptions(plan)._unsafeUnwrap() });
  return got.isOk() ? got.value.rows.map((r) => [r.status, r.detail, r.spelled]) : describeFault(got.error);
}

describe("a case variant of any parent segment diverges", () => {
  test("Dir/other.py makes `absent dir/a.py` diverge, naming Dir", async () => {
    const t = fixtureTree({ "Dir/other.py": "x" }, {}).tree;
    expect(await outcome(t, "absent\tdir/a.py")).toEqual([["diverge", 'the tree spells it "Dir" (a case variant)', "Dir"]]);
  });

  test("a file named src makes `absent SRC/refunds.py` diverge", async () => {
    const t = fixtureTree({ src: "a file" }, {}).tree;
    expect(await outcome(t, "absent\tSRC/refunds.py")).toEqual([["diverge", 'the tree spells it "src" (a case variant)', "src"]]);
  });

  test("a variant deeper down is named with the path to it; the exact path still holds", async () => {
    const t = fixtureTree({ "a/Sub/x.py": "x", "b/y.py": "y" }, {}).tree;
    expect(await outcome(t, "absent\ta/sub/new.py\nabsent\tb/new.py\nexists\ta/Sub/x.py")).toEqual([
      ["diverge", 'the tree spells it "a/Sub" (a case variant)', "a/Sub"],
      ["hold", "not in the tree", undefined],
      ["hold", "present", undefined],
    ]);
  });

  test("a twin beside a directory that exists as written still counts, however many rows sit there", async () => {
    const t = fixtureTree({ "a/sub/x.py": "x", "a/Sub/y.py": "y", "b/sub/x.py": "x" }, {}).tree;
    const plan = [
      "exists\ta/sub/x.py",
      "absent\ta/sub/y.py",
      "absent\ta/sub/new.py",
      "absent\ta/sub/gone/z.py",
      "absent\tb/sub/new.py",
      "absent\tb/sub/gone/z.py",
    ];
    expect(await outcome(t, plan.join("\n"))).toEqual([
      ["hold", "present", undefined],
      ["diverge", 'the tree spells it "a/Sub/y.py" (a case variant)', "a/Sub/y.py"],
      ["diverge", 'the tree spells it "a/Sub" (a case variant)', "a/Sub"],
      ["diverge", 'the tree spells it "a/Sub" (a case variant)', "a/Sub"],
      ["hold", "not in the tree", undefined],
      ["hold", "not in the tree", undefined],
    ]);
  });
});

describe("symlink chains are counted as the kernel counts them", () => {
  const chain = (n: number) => `${Array.from({ length: n }, () => "d").join("/")}/x`;
  test("40 links through d -> . resolve; 41 are a loop naming the link", async () => {
    const t = fixtureTree({ x: "x" }, { d: "." }).tree;
    expect(await outcome(t, `exists\t${chain(40)}`)).toEqual([["hold", "present", undefined]]);
    expect(await outcome(t, `absent\t${chain(41)}`)).toMatch(/^line 1: the symbolic link "(d\/)*d" loops$/);
  });

  test("the same on a real directory, where the kernel itself says ELOOP", async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, "x"), "x");
    nodeFs.symlinkSync(".", join(dir, "d"));
    expect(() => nodeFs.statSync(join(dir, chain(41)))).toThrow(/ELOOP/);
    expect(await outcome(nodeTree(dir), `absent\t${chain(41)}`)).toMatch(/loops$/);
    expect(await outcome(nodeTree(dir), `exists\t${chain(40)}`)).toEqual([["hold", "present", undefined]]);
  });
});

describe("a directory far below what is known is resolved level by level", () => {
  // Twenty rows in directories under `a` run first (however many groups run at once), so by the time the
  // deep rows are judged `a` is known and their directory lies twelve unknown levels below it:
  // resolved from the top, every level in turn, never by its last name looked up in `a` (which
  // holds an `l` of its own, with an `other.ts` in it).
  test("rows twelve levels below a known directory", async () => {
    const deep = "a/b/c/d/e/f/g/h/i/j/k/l";
    const files: Record<string, string> = { "a/l/other.ts": "x", [`${deep}/file.ts`]: "x" };
    for (let i = 0; i < 20; i += 1) files[`a/s${i}/f.ts`] = "x";
    const t = fixtureTree(files).tree;
    const plan = [
      ...Array.from({ length: 20 }, (_, i) => `exists\ta/s${i}/f.ts`),
      `absent\t${deep}/other.ts`,
      `exists\t${deep}/file.ts`,
      `absent\t${deep}/m/n/o/p/q/r/s/t/u/v/x.ts`,
    ];
    const rows = await outcome(t, plan.join("\n"));
    expect(Array.isArray(rows) && rows.map((r) => r[0])).toEqual(Array.from({ length: 23 }, () => "hold"));
  });
});

describe("two spellings that lead to one directory are walked through once", () => {
  // `s` and `S` (or Cyrillic `ѕ`) both lead to the root: a missing path n levels deep has 2^n
  // spellings. Each turn is made once, so 30 levels take no longer than a few; the answer is the
  // first variant in the walk's order, the last level spelled the other way.
  test("case twins: 30 levels answer at once, as 6 levels do", async () => {
    const t = fixtureTree({ x: "x" }, { s: ".", S: "." }).tree;
    for (const n of [6, 30]) {
      expect(await outcome(t, `absent\t${"s/".repeat(n)}nope`)).toEqual([
        ["diverge", `the tree spells it "${"s/".repeat(n - 1)}S" (a case variant)`, `${"s/".repeat(n - 1)}S`],
      ]);
    }
    expect(await outcome(t, `exists\t${"s/".repeat(30)}x`)).toEqual([["hold", "present", undefined]]);
  }, 10_000);

  test("confusable twins (Latin s, Cyrillic \u0455) the same; past 40 links, the loop", async () => {
    const t = fixtureTree({ x: "x" }, { s: ".", "\u0455": "." }).tree;
    expect(await outcome(t, `absent\t${"s/".repeat(30)}nope`)).toEqual([
      ["diverge", `the tree spells it "${"s/".repeat(29)}\u0455" (a confusable spelling in another script)`, `${"s/".repeat(29)}\u0455`],
    ]);
    expect(await outcome(t, `absent\t${"s/".repeat(41)}nope`)).toMatch(/loops$/);
  }, 10_000);
});

describe("each link is followed once a run, and still counted per path", () => {
  const links = (n: number): Record<string, string> => ({
    ...Object.fromEntries(Array.from({ length: n }, (_, k) => [`c${k + 1}`, k + 1 === n ? "." : `c${k + 2}`])),
    d: ".",
  });
  const through = (dees: number) => `${"d/".repeat(dees)}c1/x`;

  test("a 30-link chain resolves alone; reached after 11 more links it is a loop, in either order", async () => {
    const t = fixtureTree({ x: "x" }, links(30)).tree;
    expect(await outcome(t, `exists\tc1/x\nexists\t${through(10)}`)).toEqual([
      ["hold", "present", undefined],
      ["hold", "present", undefined],
    ]);
    expect(await outcome(t, `exists\tc1/x\nabsent\t${through(11)}`)).toMatch(/^line 2: the symbolic link "(d\/)*c1" loops$/);
    expect(await outcome(t, `absent\t${through(11)}\nexists\tc1/x`)).toMatch(/^line 1: the symbolic link "(d\/)*c1" loops$/);
    // The chain named last, in a directory reached through 11 links: still counted from there.
    expect(await outcome(t, `exists\tc1/x\nexists\t${"d/".repeat(11)}c1`)).toMatch(/^line 2: the symbolic link "(d\/)*c1" loops$/);
    expect(await outcome(t, `exists\t${"d/".repeat(10)}c1`)).toEqual([["hold", "present", undefined]]);
  });

  test("the kernel agrees on a real directory", async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, "x"), "x");
    for (const [name, target] of Object.entries(links(30))) nodeFs.symlinkSync(target, join(dir, name));
    expect(nodeFs.statSync(join(dir, through(10))).isFile()).toBe(true);
    expect(() => nodeFs.statSync(join(dir, through(11)))).toThrow(/ELOOP/);
    expect(await outcome(nodeTree(dir), `exists\tc1/x\nabsent\t${through(11)}`)).toMatch(/^line 2: .* loops$/);
  });

  test("a thousand rows through one link read it once", async () => {
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`real/f${k}.ts`, `${k}`]));
    let reads = 0;
    const t = faultyTree(fixtureTree(files, { alias: "real" }).tree, (op) => {
      if (op === "readLink") reads += 1;
      return undefined;
    });
    const plan = Array.from({ length: 1000 }, (_, k) => (k % 2 === 0 ? `exists\talias/f${k % 50}.ts` : `contains\talias/f${k % 50}.ts\t${k % 50}`));
    const rows = await outcome(t, plan.join("\n"));
    expect(Array.isArray(rows) && rows.every((r) => r[0] === "hold")).toBe(true);
    expect(reads).toBe(1);
  });
});

describe("a walk turns each place once, whatever the links before it, and still counts them", () => {
  // `a` at every level, beside it `A -> a`: each level of a missing path can be reached behind
  // 0 to `levels` links. Past 40 the spelling through every `A` is a loop, as the kernel says.
  const twins = (levels: number) => {
    const links: Record<string, string> = {};
    for (let k = 0; k < levels; k += 1) links[`${"a/".repeat(k)}A`] = "a";
    return fixtureTree({ [`${"a/".repeat(levels)}f`]: "x" }, links).tree;
  };
  test("30 levels: the missing path is a case variant; 41: a loop, also after the places were turned", async () => {
    // A case-insensitive checkout would merge `a` and `A`, so `.../missing` under `A` is a variant.
    expect(await outcome(twins(30), `absent\t${"a/".repeat(30)}missing`)).toEqual([
      ["diverge", expect.stringMatching(/\(a case variant\)$/), expect.stringMatching(/A/)],
    ]);
    expect(await outcome(twins(30), `exists\t${"a/".repeat(29)}A/f`)).toEqual([["hold", "present", undefined]]);
    expect(await outcome(twins(41), `absent\t${"a/".repeat(41)}missing`)).toMatch(/loops$/);
    expect(await outcome(twins(41), `absent\t${"a/".repeat(20)}x\nabsent\t${"a/".repeat(41)}missing`)).toMatch(/^line 2: .*loops$/);
  }, 20_000);
});

describe("a link met inside another's chain is read once, and still counted per path", () => {
  // l0 -> l1 -> ... -> l38 -> f.txt: 39 links; each `d` (-> .) on the way is one more.
  const chain = (): Record<string, string> => ({
    ...Object.fromEntries(Array.from({ length: 39 }, (_, k) => [`l${k}`, k === 38 ? "f.txt" : `l${k + 1}`])),
    d: ".",
  });

  test("rows on every link of a 39-link chain, in any order, read each link once", async () => {
    for (const order of [(k: number) => k, (k: number) => 38 - k, (k: number) => (k * 7) % 39]) {
      const read: string[] = [];
      const t = faultyTree(fixtureTree({ "f.txt": "end" }, chain()).tree, (op, path) => {
        if (op === "readLink") read.push(path);
        return undefined;
      });
      const plan = Array.from({ length: 39 * 20 }, (_, r) => `contains\tl${order(r % 39)}\tend`);
      const rows = await outcome(t, plan.join("\n"));
      expect(Array.isArray(rows) && rows.length === 39 * 20 && rows.every((r) => r[0] === "hold")).toBe(true);
      expect(read.sort()).toEqual(Array.from({ length: 39 }, (_, k) => `l${k}`).sort());
    }
  });

  test("the kernel agrees: through one more link the chain holds, through two it loops, whichever rows came first", async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, "f.txt"), "end");
    for (const [name, target] of Object.entries(chain())) nodeFs.symlinkSync(target, join(dir, name));
    expect(nodeFs.readFileSync(join(dir, "d/l0"), "utf8")).toBe("end");
    expect(() => nodeFs.readFileSync(join(dir, "d/d/l0"))).toThrow(/ELOOP/);
    const warm = Array.from({ length: 39 }, (_, k) => `contains\tl${38 - k}\tend`).join("\n");
    expect(await outcome(nodeTree(dir), `${warm}\ncontains\td/l0\tend`)).toEqual(Array.from({ length: 40 }, () => ["hold", "literal present", undefined]));
    expect(await outcome(nodeTree(dir), `${warm}\ncontains\td/d/l0\tend`)).toMatch(/^line 40: the symbolic link "(d\/)*l0" loops$/);
    expect(await outcome(nodeTree(dir), `contains\td/d/l0\tend\n${warm}`)).toMatch(/^line 1: the symbolic link "(d\/)*l0" loops$/);
  });
});

describe("submodules are named, never checked", () => {
  test("a gitlink in a commit: reaching into it or naming it is a submodule fault", async () => {
    const dir = join(await tempDir(), "r");
    commitSpec(dir, { files: { "a.txt": "a\n" }, links: {} });
    git(dir, "update-index", "--add", "--cacheinfo", `160000,${git(dir, "rev-parse", "HEAD")},vendor/lib`);
    git(dir, "commit", "-q", "-m", "gitlink");
    const t = gitTree({ fs: nodeFs, dir, ref: "HEAD" });
    const sentence = 'line 1: "vendor/lib" is a git submodule (or a nested repository): its files belong to another repository and are not checked';
    expect(await outcome(t, "absent\tvendor/lib/x")).toBe(sentence);
    expect(await outcome(t, "contains\tvendor/lib\tx")).toBe(sentence);
    expect(await outcome(t, "exists\tvendor/lib")).toBe(sentence);
  });

  test("a nested repository in a working tree: the same fault", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "vendor", "lib", ".git"), { recursive: true });
    writeFileSync(join(dir, "vendor", "lib", "y"), "y");
    const t = nodeTree(dir);
    expect(await outcome(t, "absent\tvendor/lib/x")).toMatch(/"vendor\/lib" is a git submodule/);
    expect(await outcome(t, "exists\tvendor/lib/")).toMatch(/"vendor\/lib" is a git submodule/);
    expect(await outcome(t, "exists\tvendor/")).toEqual([["hold", "present", undefined]]);
  });

  test("a directory that cannot be listed is a fault when named, by itself or through a link (it may be a repository)", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "locked", ".git"), { recursive: true });
    writeFileSync(join(dir, "locked", "f.txt"), "x");
    nodeFs.symlinkSync("locked", join(dir, "l"));
    const t = faultyTree(nodeTree(dir), (op, path) => (op === "list" && path === "locked" ? { code: "tree-io", path, message: "locked: EACCES" } : undefined));
    for (const row of ["exists\tlocked/", "exists\tlocked", "exists\tl/", "exists\tl"]) {
      expect([row, await outcome(t, row)]).toEqual([row, expect.stringMatching(/EACCES/)]);
    }
    // A tree that descends into repositories needs no listing to take the directory as found.
    const descending = { ...t, descendsSubmodules: true };
    expect(await outcome(descending, "exists\tlocked/")).toEqual([["hold", "present", undefined]]);
  });

  test("a file inside a nested repository, named exactly: the same fault (not a quick hold)", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "vendor", "lib", ".git"), { recursive: true });
    writeFileSync(join(dir, "vendor", "lib", "y"), "y");
    for (const row of ["exists\tvendor/lib/y", "contains\tvendor/lib/y\ty", "lacks\tvendor/lib/y\tz"]) {
      expect(await outcome(nodeTree(dir), row)).toMatch(/"vendor\/lib" is a git submodule/);
    }
  });

  test("a symbolic link into a nested repository, or naming one, reaches into it: the same fault (held before)", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "vendor", "lib", ".git"), { recursive: true });
    writeFileSync(join(dir, "vendor", "lib", "y"), "y");
    nodeFs.symlinkSync("vendor/lib/y", join(dir, "alias"));
    nodeFs.symlinkSync("vendor/lib", join(dir, "dirlink"));
    nodeFs.symlinkSync("vendor/lib/", join(dir, "slashlink"));
    nodeFs.symlinkSync("../vendor/lib/y", join(dir, "vendor", "up"));
    for (const row of ["exists\talias", "contains\talias\ty", "exists\tdirlink", "exists\tslashlink/", "exists\tvendor/up", "absent\tdirlink/z"]) {
      expect(await outcome(nodeTree(dir), row)).toMatch(/^line 1: "vendor\/lib" is a git submodule/);
    }
    expect(await outcome(nodeTree(dir, { descendSubmodules: true }), "exists\talias\ncontains\talias\ty\nexists\tdirlink/y")).toEqual([
      ["hold", "present", undefined],
      ["hold", "literal present", undefined],
      ["hold", "present", undefined],
    ]);
  });

  test("descendSubmodules: a nested repository is ordinary directories (node, memfs, a faulty wrapper)", async () => {
    const dir = await tempDir();
    mkdirSync(join(dir, "vendor", "lib", ".git"), { recursive: true });
    writeFileSync(join(dir, "vendor", "lib", "y"), "y");
    const plan = "exists\tvendor/lib/y\ncontains\tvendor/lib/y\ty\nabsent\tvendor/lib/x\nexists\tvendor/lib/";
    const held = [
      ["hold", "present", undefined],
      ["hold", "literal present", undefined],
      ["hold", "not in the tree", undefined],
      ["hold", "present", undefined],
    ];
    const trees = [
      nodeTree(dir, { descendSubmodules: true }),
      memfsTree(nodeFs as unknown as TreeFs, dir, { descendSubmodules: true }),
      faultyTree(nodeTree(dir, { descendSubmodules: true }), () => undefined),
    ];
    for (const t of trees) expect(await outcome(t, plan)).toEqual(held);
    expect(
      await outcome(
        faultyTree(nodeTree(dir), () => undefined),
        plan,
      ),
    ).toMatch(/"vendor\/lib" is a git submodule/);
  });
});

describe("U+2028 and U+2029 are refused anywhere in a path", () => {
  test.each(["notes\u2028.md", "a\u2029b/c", "\u2028x"])("%j", (path) => {
    const got = parseAssumptions(`absent\t${path}`);
    expect(got._unsafeUnwrapErr()).toMatchObject({ code: "path-line-break", line: 1 });
    expect(describeFault(got._unsafeUnwrapErr())).toMatch(/holds the line-breaking character U\+202[89]$/);
  });
});

describe("messages a user can act on", () => {
  test("an unknown kind quotes at most 80 characters, then an ellipsis and the length", () => {
    const kind = "k".repeat(1_000_000);
    const message = describeFault(parseAssumptions(`${kind}\tx`)._unsafeUnwrapErr());
    expect(message).toBe(`line 1: unknown kind "${"k".repeat(80)}"… (1000000 characters) (expected exists, absent, contains, lacks or unchanged)`);
  });

  test("CR-only line endings are named; one CR at the very end reads as a line ending", () => {
    expect(describeFault(parseAssumptions("exists\ta\rabsent\tb\r")._unsafeUnwrapErr())).toBe("line 1: line endings are CR only; convert to LF or CRLF");
    expect(parseAssumptions("exists\ta\r")._unsafeUnwrap()).toHaveLength(1);
    expect(parseAssumptions("exists\ta\r\nabsent\tb\r\n")._unsafeUnwrap()).toHaveLength(2);
  });
});
