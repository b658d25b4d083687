import fc from "fast-check";
import { createHash } from "node:crypto";
import { memfs } from "memfs";
import { ResultAsync } from "neverthrow";
import { describe, expect, test } from "vitest";
import { faultyTree } from "../testing/faulty.js";
import { memfsTree } from "../adapters/memfs.js";
import type { TreeReader } from "../tree.js";
import { checkTree } from "./check.js";
import { countedReader } from "../../test/support/counted-reader.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import type { Assumption } from "./model.js";
import { parseAssumptions, reparseAssumption } from "./parse.js";
import { skeleton as referenceSkeleton } from "../../test/support/unicode-reference.js";

function tree(files: Record<string, string | Uint8Array>, links: Record<string, string> = {}): TreeReader {
  return fixtureTree(files, links).tree;
}

async function run(t: TreeReader, plan: string) {
  return checkTree({ tree: t, assumptions: parseAssumptions(plan)._unsafeUnwrap() });
}

async function rows(t: TreeReader, plan: string) {
  return (await run(t, plan))._unsafeUnwrap().rows.map((r) => [r.status, r.detail, r.spelled]);
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the five kinds", () => {
  const t = tree({ "src/payments.py": "def charge(x):\n  pass\n", "docs/a.md": "x" });
  test("a tree the plan describes holds, with a report in input order", async () => {
    const plan = `exists\tsrc/payments.py\nabsent\tsrc/refunds.py\ncontains\tsrc/payments.py\tdef charge(\nlacks\tsrc/payments.py\tdef refund(\nunchanged\tsrc/payments.py\t${sha("def charge(x):\n  pass\n")}\nexists\tdocs/`;
    const report = (await run(t, plan))._unsafeUnwrap();
    expect(report).toMatchObject({ verdict: "holds", root: "fixture", checked: 6, held: 6, diverged: 0 });
    expect(report.rows.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  test("each kind diverges when its belief stopped being true", async () => {
    const plan = `exists\tsrc/gone.py\nabsent\tsrc/payments.py\ncontains\tsrc/payments.py\tdef refund(\nlacks\tsrc/payments.py\tdef charge(\nunchanged\tsrc/payments.py\t${"0".repeat(64)}\nexists\tsrc/payments.py/`;
    const report = (await run(t, plan))._unsafeUnwrap();
    expect(report).toMatchObject({ verdict: "diverged", held: 0, diverged: 6 });
    expect(report.rows[4]?.detail).toBe(`the digest is now ${sha("def charge(x):\n  pass\n")}`);
    expect(report.rows[5]?.detail).toBe("present but not a directory");
  });
  test("a missing file never satisfies a negative (lacks) nor a contains/unchanged", async () => {
    const got = await rows(t, `lacks\tsrc/gone.py\tx\ncontains\tsrc/gone.py\tx\nunchanged\tsrc/gone.py\t${"a".repeat(64)}`);
    expect(got.map((r) => r[0])).toEqual(["diverge", "diverge", "diverge"]);
  });
});

describe("spellings", () => {
  test("a case variant diverges in both directions and reports the tree's spelling", async () => {
    const t = tree({ "src/Refunds.py": "def refund(" });
    const got = await rows(t, "absent\tsrc/refunds.py\nexists\tsrc/refunds.py\nlacks\tsrc/refunds.py\tzzz\nabsent\tSRC/refunds.py");
    for (const r of got) expect(r).toEqual(["diverge", expect.stringContaining("case variant"), expect.stringMatching(/src\/Refunds\.py$/)]);
  });
  test("full case folding: STRASSE.md is a variant of straße.md", async () => {
    expect(await rows(tree({ "straße.md": "" }), "absent\tSTRASSE.md")).toEqual([["diverge", expect.stringContaining("case variant"), "straße.md"]]);
  });
  test("an NFD name on disk is the NFC path in the plan: one file, not a divergence", async () => {
    const t = tree({ "cafe\u0301.txt": "menu" });
    expect(await rows(t, "exists\tcaf\u00e9.txt\ncontains\tcaf\u00e9.txt\tmenu")).toEqual([
      ["hold", "present", "cafe\u0301.txt"],
      ["hold", "literal present", "cafe\u0301.txt"],
    ]);
  });
  test("two entries that are one name after NFC are a fault naming the directory", async () => {
    const result = await run(tree({ "d/caf\u00e9": "", "d/cafe\u0301": "" }), "exists\td/caf\u00e9");
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "ambiguous-name", path: "d", line: 1 });
  });
  test("a whole-word confusable in another script is a variant: absent src/асе.ts diverges", async () => {
    const got = await rows(tree({ "src/ace.ts": "" }), "absent\tsrc/\u0430\u0441\u0435.ts");
    expect(got).toEqual([["diverge", expect.stringContaining("confusable"), "src/ace.ts"]]);
  });
  test("the other direction too: absent src/ace.ts diverges when an all-Cyrillic src/асе.ts exists", async () => {
    const got = await rows(tree({ "src/\u0430\u0441\u0435.ts": "", "src/b.ts": "" }), "absent\tsrc/ace.ts\nabsent\tsrc/c.ts");
    expect(got).toEqual([
      ["diverge", expect.stringContaining("confusable"), "src/\u0430\u0441\u0435.ts"],
      ["hold", "not in the tree", undefined],
    ]);
  });
  test("for an ASCII name, an accented Latin look-alike stays missing while one holding another script's letter is a variant", async () => {
    // ı (dotless i) is Latin; і (U+0456) is Cyrillic. Both skeletons read "file".
    const t = tree({ "a/f\u0131le.ts": "", "b/f\u0456le.ts": "", "b/caf\u00e9.ts": "" });
    expect(await rows(t, "absent\ta/file.ts\nabsent\tb/file.ts")).toEqual([
      ["hold", "not in the tree", undefined],
      ["diverge", expect.stringContaining("confusable"), "b/f\u0456le.ts"],
    ]);
  });
  test("same-script look-alikes are different names and stay missing", async () => {
    const got = await rows(tree({ "file1.ts": "", "rn.ts": "", "1": "" }), "absent\tfilel.ts\nabsent\tm.ts\nabsent\tl");
    expect(got.map((r) => r[0])).toEqual(["hold", "hold", "hold"]);
  });
  test("lacks diverges when a confusable spelling of a non-Latin literal appears", async () => {
    const t = tree({ "a.py": "def ace():\n" });
    expect(await rows(t, "lacks\ta.py\t\u0430\u0441\u0435")).toEqual([["diverge", "a confusable spelling of the literal appears", undefined]]);
    expect(await rows(t, "lacks\ta.py\tfoo")).toEqual([["hold", "literal not found", undefined]]);
  });
});

describe("file text", () => {
  test("BOM, CRLF and lone CR are folded and NFC applied before matching and hashing", async () => {
    const t = tree({ "a.txt": "\uFEFFone\r\ntwo\rcafe\u0301\n" });
    const got = await rows(t, `contains\ta.txt\tone\ncontains\ta.txt\tcaf\u00e9\nunchanged\ta.txt\t${sha("one\ntwo\ncaf\u00e9\n")}`);
    expect(got.map((r) => r[0])).toEqual(["hold", "hold", "hold"]);
  });
  test("a file that is not UTF-8 is a fault naming it", async () => {
    const result = await run(tree({ "bin.dat": new Uint8Array([0xff, 0xfe, 0x00]) }), "contains\tbin.dat\tx");
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "file-not-utf8", path: "bin.dat", line: 1 });
  });
  test("a directory where a file is needed is a fault", async () => {
    const result = await run(tree({ "d/x": "" }), "exists\td/x\nlacks\td\tx");
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "not-a-file", path: "d", entry: "directory", line: 2 });
  });
  test("a file over maxBytes is refused, not read", async () => {
    const t = tree({ "big.txt": "x".repeat(100) });
    const result = await checkTree({ tree: t, assumptions: parseAssumptions("contains\tbig.txt\tx")._unsafeUnwrap(), maxBytes: 10 });
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "tree-too-large", line: 1 });
  });
});

describe("symbolic links", () => {
  test("a link inside the root is followed for reading; exists judges the entry", async () => {
    const t = tree({ "real/a.txt": "hello" }, { alias: "real", "real/b.txt": "a.txt" });
    expect(await rows(t, "contains\talias/a.txt\thello\ncontains\treal/b.txt\thello\nexists\talias/")).toEqual([
      ["hold", "literal present", undefined],
      ["hold", "literal present", undefined],
      ["hold", "present", undefined],
    ]);
  });
  test("a dangling link whose target would be inside the root exists; reading it diverges", async () => {
    const t = tree({ x: "" }, { dangling: "nowhere.txt" });
    expect(await rows(t, "exists\tdangling\nabsent\tdangling\ncontains\tdangling\tx")).toEqual([
      ["hold", "present (a dangling symbolic link)", undefined],
      ["diverge", "already present", undefined],
      ["diverge", "a dangling symbolic link", undefined],
    ]);
  });
  test.each([
    ["absolute target", { "src/out": "/etc" }, "exists\tsrc/out/passwd", "src/out"],
    ["relative escape", { "src/up": "../../x" }, "exists\tsrc/up", "src/up"],
    ["escape via another link", { a: "b/..", b: "../.." }, "exists\ta", "a"],
  ])("a link leaving the root is a fault naming the link (%s)", async (_n, links, plan, link) => {
    const result = await run(tree({ "src/x": "" }, links), plan);
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "link-outside-root", path: link, line: 1 });
  });
  test("a looping link is a fault naming the link", async () => {
    const result = await run(tree({ x: "" }, { a: "b", b: "a" }), "exists\tx\nabsent\ta/y");
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "link-loop", path: "a", line: 2 });
  });
});

describe("faults and cost", () => {
  test("a tree failure is a fault with the row's line, never a verdict", async () => {
    const t = faultyTree(tree({ "src/a": "" }), (op, path) =>
      op === "list" && path === "src" ? { code: "tree-io", path, message: "cannot read src: EACCES" } : undefined,
    );
    const result = await run(t, "exists\tdocs\nabsent\tsrc/b");
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "tree-io", path: "src", line: 2 });
  });
  test("a root that does not exist is a fault", async () => {
    const { fs } = memfs({});
    const result = await run(memfsTree(fs, "/nope"), "absent\ta");
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-found", line: 1 });
  });
  test("rows built by hand are held to the file's rules: folded, or refused, never checked as written", async () => {
    const t = tree({ "src/pay.ts": "def refund(\n" });
    const check = (a: Record<string, unknown>) => checkTree({ tree: t, assumptions: [{ line: 3, ...a } as Assumption] });
    // An unfolded spelling of a file that exists must not let absent hold.
    for (const path of ["src//pay.ts", "src/./pay.ts", "./src/pay.ts"]) {
      expect((await check({ kind: "absent", path, directory: false }))._unsafeUnwrap().rows[0]).toMatchObject({ status: "diverge", path: "src/pay.ts" });
    }
    const refused: [Record<string, unknown>, string][] = [
      [{ kind: "absent", path: "../t/src/pay.ts", directory: false }, "path-dotdot"],
      [{ kind: "absent", path: "/src/pay.ts", directory: false }, "path-absolute"],
      [{ kind: "absent", path: "", directory: false }, "path-empty"],
      [{ kind: "absent", path: 7, directory: false }, "path-empty"],
      [{ kind: "lacks", path: "src/pay.ts", literal: "" }, "literal-blank"],
      [{ kind: "lacks", path: "src/pay.ts", literal: "def r\u0435fund(" }, "mixed-script"],
      [{ kind: "lacks", path: "src/pay.ts/", literal: "x" }, "path-directory-for-file"],
      [{ kind: "unchanged", path: "src/pay.ts", sha256: "abc" }, "bad-digest"],
      [{ kind: "Exists", path: "src/pay.ts" }, "unknown-kind"],
    ];
    for (const [a, code] of refused) expect((await check(a))._unsafeUnwrapErr()).toMatchObject({ code, line: 3 });
    const upper = sha("def refund(\n").toUpperCase();
    expect((await check({ kind: "unchanged", path: "src/pay.ts", sha256: upper }))._unsafeUnwrap().verdict).toBe("holds");
  });
  test("checkTree holds every row to the file's rules, even one parseAssumptions made that the caller then changed", async () => {
    const t = tree({ "src/pay.ts": "def refund(\n" });
    const [row] = parseAssumptions("absent\tsrc/pay.ts")._unsafeUnwrap() as [Assumption];
    expect(reparseAssumption(row)._unsafeUnwrap()).toEqual(row);
    Object.assign(row, { path: "src/../../x" });
    expect((await checkTree({ tree: t, assumptions: [row] }))._unsafeUnwrapErr()).toMatchObject({ code: "path-dotdot", line: 1 });
  });
  test("a copy of a parsed row is re-read, and a row that is no object is refused, not thrown", async () => {
    const t = tree({ "src/pay.ts": "def refund(\n" });
    const [row] = parseAssumptions("absent\tsrc/pay.ts")._unsafeUnwrap();
    const copied = await checkTree({ tree: t, assumptions: [{ ...(row as Assumption), path: "../x" } as Assumption] });
    expect(copied._unsafeUnwrapErr()).toMatchObject({ code: "path-dotdot", line: 1 });
    for (const odd of ["absent\tsrc/pay.ts", null, undefined, 7]) {
      const checked = await checkTree({ tree: t, assumptions: [odd as unknown as Assumption] });
      expect(checked._unsafeUnwrapErr()).toMatchObject({ code: "unknown-kind" });
    }
  });
  test("an empty assumption list is refused", async () => {
    expect((await checkTree({ tree: tree({}), assumptions: [] }))._unsafeUnwrapErr()).toMatchObject({ code: "plan-empty" });
  });
  // An adapter may answer at once (memfs, node:fs) or only after a real wait (git objects, a
  // network): the same plan gets the same answer either way, whatever order the rows finish in.
  const later = <T>(answer: T): Promise<T> => new Promise((done) => setImmediate(() => done(answer)));
  const bothTimings = (t: TreeReader): TreeReader[] => [
    t,
    {
      describe: t.describe,
      list: (path) => new ResultAsync(Promise.resolve(t.list(path)).then(later)),
      read: (path, max) => new ResultAsync(Promise.resolve(t.read(path, max)).then(later)),
      readLink: (path) => new ResultAsync(Promise.resolve(t.readLink(path)).then(later)),
    },
  ];

  test("a reader that waits is kept busy: reads of a small plan's rows in one directory overlap", async () => {
    const files = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`src/f${i}.ts`, `value ${i}\n`]));
    const t = tree(files);
    let reading = 0;
    let most = 0;
    const waiting: TreeReader = {
      ...t,
      // It waits, so it takes the default: the fixture's synchronous reader asks for one at a time.
      inFlight: undefined,
      read: (path, max) => {
        reading += 1;
        most = Math.max(most, reading);
        return new ResultAsync(
          Promise.resolve(t.read(path, max))
            .then(later)
            .finally(() => (reading -= 1)),
        );
      },
    };
    const plan = Object.keys(files).map((p, i) => `contains\t${p}\tvalue ${i}`);
    expect((await rows(waiting, plan.join("\n"))).every(([status]) => status === "hold")).toBe(true);
    expect(most).toBeGreaterThanOrEqual(8);
  });

  test("a reader's inFlight bounds how many of its calls wait at once, and changes no answer", async () => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 6; d += 1) for (let f = 0; f < 6; f += 1) files[`d${d}/s${f}/f.ts`] = `value ${d}${f}\n`;
    const t = tree(files, { "d0/link": "s1" });
    const plan = [
      // Every third digest is the file's own: the rest diverge.
      ...Object.keys(files).flatMap((p, i) => [
        `contains\t${p}\tvalue ${p[1]}${p[4]}`,
        `absent\t${p}.old`,
        `unchanged\t${p}\t${sha(i % 3 === 0 ? (files[p] as string) : "other")}`,
      ]),
      "exists\td0/link/f.ts",
      "lacks\tD1/s1/f.ts\tvalue",
    ].join("\n");
    const expected = await rows(t, plan);
    for (const [inFlight, most] of [
      [1, 1],
      [3, 3],
      [undefined, 16],
      [0, 16],
      [2.5, 16],
      [Number.NaN, 16],
    ] as const) {
      const { reader, seen } = countedReader(t, inFlight);
      expect(await rows(reader, plan)).toEqual(expected);
      expect(seen.most).toBe(most);
    }
  });

  test("node and memfs readers ask for one call at a time; a fault-injecting wrapper keeps that", () => {
    expect(tree({ "a.txt": "x" }).inFlight).toBe(1);
    expect(faultyTree(tree({ "a.txt": "x" }), () => undefined).inFlight).toBe(1);
  });

  test("all 4,096 case spellings of a name are explored, without running out of stack", async () => {
    const name = "abcdefghijkl";
    const spellings = Array.from({ length: 1 << name.length }, (_, bits) => [...name].map((c, i) => ((bits >> i) & 1 ? c.toUpperCase() : c)).join(""));
    const t = tree(Object.fromEntries(spellings.map((s) => [s, "x"])));
    for (const reader of bothTimings(t)) {
      // Every case spelling is a file, so "x" is under none; the variant spellings of the parent
      // still make the first row diverge (a case-insensitive checkout would merge them).
      expect(
        await rows(
          reader,
          `absent	${name}/x
exists	ABCDEFGHIJKL
absent	abcdefghijkL`,
        ),
      ).toEqual([
        ["diverge", expect.stringMatching(/^the tree spells it "[a-lA-L]{12}" \(a case variant\)$/), expect.stringMatching(/^[a-lA-L]{12}$/)],
        ["hold", "present", undefined],
        ["diverge", "already present", undefined],
      ]);
    }
  });

  test("a path 2,000 directories deep is walked to its end, exactly or through a variant spelling", async () => {
    const deep = Array.from({ length: 2000 }, () => "d").join("/");
    const t = tree({ [`${deep}/f.txt`]: "x" });
    const variant = `D/${deep.slice(2)}/f.txt`;
    for (const reader of bothTimings(t)) {
      expect(
        await rows(
          reader,
          `absent	${deep}/missing
exists	${deep}/f.txt
exists	${variant}`,
        ),
      ).toEqual([
        ["hold", "not in the tree", undefined],
        ["hold", "present", undefined],
        ["diverge", `the tree spells it "${deep}/f.txt" (a case variant)`, `${deep}/f.txt`],
      ]);
    }
  });

  // A reader that records every listing.
  const recordingLists = (t: TreeReader) => {
    const listed: string[] = [];
    const reader: TreeReader = {
      describe: t.describe,
      list: (path) => {
        listed.push(path);
        return t.list(path);
      },
      read: t.read,
      readLink: t.readLink,
    };
    return { reader, listed };
  };

  test("rows are judged directory by directory, yet the fault reported is the first in input order", async () => {
    const t = tree({ "b/bad.txt": new Uint8Array([0xff]), "a/bad.txt": new Uint8Array([0xfe]), "b/ok.txt": "x" });
    for (const reader of bothTimings(t)) {
      // b/ and a/ are judged at the same time, either may fault first; line 1 is still the answer.
      expect((await run(reader, "contains\tb/bad.txt\tx\ncontains\ta/bad.txt\tx"))._unsafeUnwrapErr()).toMatchObject({
        code: "file-not-utf8",
        path: "b/bad.txt",
        line: 1,
      });
      expect((await run(reader, "exists\tb/ok.txt\ncontains\ta/bad.txt\tx\ncontains\tb/bad.txt\tx"))._unsafeUnwrapErr()).toMatchObject({
        path: "a/bad.txt",
        line: 2,
      });
    }
  });

  test("each directory is listed once, however many rows, variant spellings and links lead to it", async () => {
    const t = tree({ "Lib/a.ts": "x", "Lib/b.ts": "y", "z/other.ts": "" }, { "z/to-a.ts": "../Lib/a.ts" });
    // Judged in the order Lib/, lib/ (a case variant of Lib/), z/ (a link into Lib/).
    const plan = "exists\tLib/a.ts\ncontains\tz/to-a.ts\tx\nexists\tlib/b.ts";
    for (const face of bothTimings(t)) {
      const { reader, listed } = recordingLists(face);
      expect(await rows(reader, plan)).toEqual([
        ["hold", "present", undefined],
        ["hold", "literal present", undefined],
        ["diverge", 'the tree spells it "Lib/b.ts" (a case variant)', "Lib/b.ts"],
      ]);
      expect(listed.sort()).toEqual(["", "Lib", "z"]);
    }
  });

  test("a directory too large to scan finds its case variants through the fold index", async () => {
    const files = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`big/f${i}.txt`, ""]));
    const t = tree({ ...files, "big/README.md": "", "small/README.md": "" });
    for (const dir of ["big", "small"]) {
      expect(await rows(t, `absent\t${dir}/readme.MD\nexists\t${dir}/README.md\nabsent\t${dir}/readme.txt`)).toEqual([
        ["diverge", `the tree spells it "${dir}/README.md" (a case variant)`, `${dir}/README.md`],
        ["hold", "present", undefined],
        ["hold", "not in the tree", undefined],
      ]);
    }
  });

  test("each directory is listed once per run, however many rows name it", async () => {
    const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d/f${i}.txt`, "x"]));
    const listed: string[] = [];
    const t = faultyTree(tree(files), (op, path) => {
      if (op === "list") listed.push(path);
      return undefined;
    });
    const plan = Array.from({ length: 50 }, (_, i) => `exists\td/f${i}.txt\nabsent\td/g${i}.txt`).join("\n");
    expect((await run(t, plan))._unsafeUnwrap().held).toBe(100);
    expect(listed.sort()).toEqual(["", "d"]);
  });
});

describe("rows that name one file share its read", () => {
  test("a thousand rows on one file, spread over the plan among other rows, read it once", async () => {
    const big = Array.from({ length: 300 }, (_, k) => `export function fn${k}() {}\n`).join("");
    const others = Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`src/o${k}.ts`, `o${k}`]));
    const reads: string[] = [];
    const t = faultyTree(tree({ "src/big.ts": big, ...others }), (op, path) => {
      if (op === "read") reads.push(path);
      return undefined;
    });
    const plan: string[] = [];
    for (let k = 0; k < 1000; k += 1) {
      plan.push(k % 3 === 0 ? `contains\tsrc/big.ts\tfn${k % 300}()` : k % 3 === 1 ? `lacks\tsrc/big.ts\tgone${k}` : `unchanged\tsrc/big.ts\t${sha(big)}`);
      if (k % 25 === 0) plan.push(`contains\tsrc/o${(k / 25) % 40}.ts\to`);
    }
    const report = (await run(t, plan.join("\n")))._unsafeUnwrap();
    expect(report).toMatchObject({ verdict: "holds", checked: plan.length });
    expect(reads.filter((p) => p === "src/big.ts")).toEqual(["src/big.ts"]);
    expect(reads.length).toBe(41);
  });

  test("rows that reach one file through many links and spellings read it once", async () => {
    const text = "export const rate = 3;\n".repeat(2000);
    const links: Record<string, string> = { "pinned.ts": "lib/rate.ts", "again.ts": "pinned.ts" };
    for (let k = 0; k < 200; k += 1) links[`v${k}`] = "lib";
    const reads: string[] = [];
    const t = faultyTree(tree({ "lib/rate.ts": text, "lib/other.ts": "x" }, links), (op, path) => {
      if (op === "read") reads.push(path);
      return undefined;
    });
    const plan: string[] = [];
    for (let k = 0; k < 200; k += 1) {
      plan.push(`contains\tv${k}/rate.ts\trate = 3`, `lacks\tv${k}/rate.ts\trate = ${k + 4}`, `unchanged\tv${k}/rate.ts\t${sha(text)}`);
    }
    plan.push(
      `contains\tpinned.ts\trate`,
      `unchanged\tagain.ts\t${sha(text)}`,
      "contains\tlib/rate.ts\tconst",
      "contains\tv7/other.ts\tx",
      "lacks\tv9/rate.ts\trate = 3",
    );
    const report = (await run(t, plan.join("\n")))._unsafeUnwrap();
    expect(report).toMatchObject({ checked: 605, held: 604, diverged: 1 });
    expect(report.rows[604]).toMatchObject({ path: "v9/rate.ts", status: "diverge", detail: "literal present" });
    expect(reads.sort()).toEqual(["lib/other.ts", "lib/rate.ts"]);
  });

  test("files over 4 MiB are read whole one at a time, after a first read that stops at 4 MiB", async () => {
    const big = (k: number) => `${"x".repeat(5 << 20)} big${k}\n`;
    const files: Record<string, string> = { "small.txt": "tiny" };
    for (let k = 0; k < 6; k += 1) files[`b${k}.txt`] = big(k);
    const t = tree(files);
    const later = <T>(answer: T): Promise<T> => new Promise((done) => setImmediate(() => done(answer)));
    const asked: number[] = [];
    let whole = 0;
    let most = 0;
    const waiting: TreeReader = {
      ...t,
      inFlight: undefined,
      read: (path, max) => {
        asked.push(max);
        const full = max > 4 << 20;
        if (full) most = Math.max(most, (whole += 1));
        return new ResultAsync(
          Promise.resolve(t.read(path, max))
            .then(later)
            .finally(() => {
              if (full) whole -= 1;
            }),
        );
      },
    };
    const plan = [
      ...Object.keys(files)
        .filter((p) => p !== "small.txt")
        .flatMap((p, k) => [`contains\t${p}\tbig${k}`, `unchanged\t${p}\t${sha(big(k))}`]),
      "lacks\tsmall.txt\tbig",
    ];
    const report = (await run(waiting, plan.join("\n")))._unsafeUnwrap();
    expect(report).toMatchObject({ verdict: "holds", checked: 13 });
    expect(most).toBe(1);
    expect(asked.filter((m) => m === 4 << 20)).toHaveLength(7);
    expect(asked.filter((m) => m > 4 << 20)).toHaveLength(6);
    const limited = await checkTree({ tree: waiting, assumptions: parseAssumptions("contains\tb1.txt\tbig1")._unsafeUnwrap(), maxBytes: 5 << 20 });
    expect(limited._unsafeUnwrapErr()).toMatchObject({ code: "tree-too-large", line: 1, message: expect.stringContaining(String(5 << 20)) });
  });

  test("a file that is not UTF-8, reached by two spellings, is the fault of the first row, named as it spells it", async () => {
    const t = tree({ "a/ok.txt": "x", "a/bad.txt": new Uint8Array([0x61, 0xc3]) }, { b: "a", "a/worse.txt": "bad.txt" });
    for (const [plan, line, path] of [
      [`exists\ta/ok.txt\ncontains\tb/bad.txt\tx\nunchanged\ta/bad.txt\t${"0".repeat(64)}`, 2, "b/bad.txt"],
      [`unchanged\ta/worse.txt\t${"0".repeat(64)}\nlacks\tb/bad.txt\tx\ncontains\ta/bad.txt\tx`, 1, "a/worse.txt"],
      [`contains\ta/ok.txt\tx\nlacks\ta/bad.txt\ty\ncontains\tb/worse.txt\tx`, 2, "a/bad.txt"],
    ] as const) {
      expect((await run(t, plan))._unsafeUnwrapErr()).toMatchObject({ code: "file-not-utf8", path, line });
    }
  });

  test("a file that is not UTF-8, named by rows far apart, is the fault of the first of them", async () => {
    const t = tree({ "a/bad.txt": new Uint8Array([0xff]), "a/ok.txt": "x" });
    const plan = `exists\ta/ok.txt\ncontains\ta/ok.txt\tx\nunchanged\ta/bad.txt\t${"0".repeat(64)}\nexists\ta/ok.txt\ncontains\ta/bad.txt\tx`;
    expect((await run(t, plan))._unsafeUnwrapErr()).toMatchObject({ code: "file-not-utf8", path: "a/bad.txt", line: 3 });
  });
});

describe("many literals on one file are answered in one pass, with the answers includes gives", () => {
  test("contains and lacks rows on one file: each row's verdict as text.includes says", async () => {
    const pieces = fc.string({ unit: fc.constantFrom("a", "b", "é", "\n", "x"), minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom("a", "b", "é", "\n", "x", "y"), maxLength: 80 }),
        fc.array(fc.tuple(fc.boolean(), pieces), { minLength: 1, maxLength: 70, size: "max" }),
        async (text, asks) => {
          const t = tree({ "d/f.txt": text });
          const plan = asks.map(([contains, literal]) => `${contains ? "contains" : "lacks"}\td/f.txt\t${literal.replace(/\n/g, "x")}`);
          const report = (await run(t, plan.join("\n")))._unsafeUnwrap();
          const expected = asks.map(([contains, literal]) => {
            const present = text.includes(literal.replace(/\n/g, "x"));
            return contains === present ? "hold" : "diverge";
          });
          expect(report.rows.map((r) => r.status)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("lacks rows in another script on one file: confusable spellings found however many rows ask", () => {
  // Whole words in Latin, Cyrillic and Greek that look alike (`ace`/`асе`, `pop`/`рор`), so a
  // literal's skeleton may or may not be in the text's. One row alone takes the windowed search;
  // several take the skeleton of the whole text, and forty or more one pass over it (numbered
  // words make that many distinct literals).
  const WORDS = ["ace", "\u0430\u0441\u0435", "pop", "\u0440\u043e\u0440", "cop", "\u0441\u043e\u0440", "\u03bf\u03c1\u03b1", "opa", "\u0434\u0430"];
  const words = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max });
  test("each row's verdict as includes and the reference skeleton say", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(words(1, 6), fc.constantFrom(" ", "\n"), fc.option(fc.nat({ max: 30 }))), { maxLength: 12 }),
        fc.array(fc.tuple(words(1, 2), fc.option(fc.nat({ max: 30 }))), { minLength: 1, maxLength: 70, size: "max" }),
        async (lines, asks) => {
          const text = lines.map(([ws, end, n]) => ws.join(" ") + (n ?? "") + end).join("");
          const literals = asks.map(([ws, n]) => ws.join(" ") + (n ?? ""));
          const report = (await run(tree({ "d/f.txt": text }), literals.map((l) => `lacks\td/f.txt\t${l}`).join("\n")))._unsafeUnwrap();
          const expected = literals.map((l) => {
            if (text.includes(l)) return "literal present";
            const otherScript = /(?=\p{L})\P{Script=Latin}/u.test(l);
            return otherScript && referenceSkeleton(text).includes(referenceSkeleton(l)) ? "a confusable spelling of the literal appears" : "literal not found";
          });
          expect(report.rows.map((r) => r.detail)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
