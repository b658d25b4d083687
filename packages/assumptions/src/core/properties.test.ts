import { createHash } from "node:crypto";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { checkTree } from "./check.js";
import { digestText } from "./digest.js";
import { ASSUMPTIONS_FAULT_CODES } from "./faults.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { parseAssumptions } from "./parse.js";
import { parseAnyPath, parsePath } from "./path.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { nodeTree } from "../node/tree.js";
import { memfs } from "memfs";
import { gitTree } from "../adapters/git.js";
import { memfsTree } from "../adapters/memfs.js";
import { faultyTree } from "../testing/faulty.js";
import type { TreeReader } from "../tree.js";
import { git } from "../../test/support/test-fixtures.js";

function mkdirIn(base: string, name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const CODES: readonly string[] = ASSUMPTIONS_FAULT_CODES;

function rowsOrFault(result: ReturnType<typeof parseAssumptions>): boolean {
  return result.isOk() ? result.value.length > 0 : CODES.includes(result.error.code);
}

describe("parsing never throws: rows or a fault", () => {
  const line = fc.tuple(
    fc.constantFrom("exists", "absent", "contains", "lacks", "unchanged", "#", " ", "", "Exists"),
    fc.array(fc.string({ unit: "grapheme", maxLength: 8 }), { maxLength: 3 }),
  );
  const rowish = fc
    .tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom("\n", "\r\n"))
    .map(([lines, eol]) => lines.map(([kind, fields]) => [kind, ...fields].join("\t")).join(eol));
  test("any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => rowsOrFault(parseAssumptions(text))),
      { numRuns: 300 },
    );
  });
  test("any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => rowsOrFault(parseAssumptions(bytes))),
      { numRuns: 300 },
    );
  });
  test("row-shaped text", () => {
    fc.assert(
      fc.property(rowish, (text) => rowsOrFault(parseAssumptions(text))),
      { numRuns: 300 },
    );
  });
});

describe("the plain-path shortcut", () => {
  // Strings built from the characters every path rule turns on: separators, dots, a drive
  // colon, padding, a backslash, a control, a non-ASCII letter (NFD and NFC) and plain letters.
  const pathish = fc
    .array(fc.constantFrom("a", "B", "z", "0", "-", ".", "..", "/", "//", "\\", " ", ":", "C:", "\t", "e\u0301", "\u00e9", "~"), { maxLength: 8 })
    .map((parts) => parts.join(""));
  test("answers exactly as the full rules do, for every path", () => {
    fc.assert(
      fc.property(pathish, (raw) => {
        expect(parsePath(raw, 7)).toEqual(parseAnyPath(raw, 7));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the digest is over normalised text", () => {
  const base = fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replace(/\r/g, "").replace(/^\uFEFF+/, ""));
  test("invariant under CRLF, lone CR, a BOM and NFC/NFD rewriting", () => {
    fc.assert(
      fc.property(base, (text) => {
        const want = digestText(utf8(text.normalize("NFC")))._unsafeUnwrap();
        const variants = [text.replace(/\n/g, "\r\n"), text.replace(/\n/g, "\r"), `\uFEFF${text}`, text.normalize("NFD"), text.normalize("NFC")];
        return variants.every((v) => digestText(utf8(v))._unsafeUnwrap() === want);
      }),
      { numRuns: 300 },
    );
  });
});

// A small independent model of the gate over ASCII trees: names from a tiny alphabet with case twins.
const NAMES = ["a", "b", "A", "ab", "aB"] as const;
const CONTENTS = ["", "x", "xy\r\n", "y\n"] as const;
const LITERALS = ["x", "y", "xy"] as const;

type ModelTree = Map<string, string>; // file path -> content

// Found when the path is in the tree as written; else a variant when any of its prefixes (a
// parent, or the path itself) is in the tree under another case; else missing.
function modelLocate(tree: ModelTree, path: string): "found" | "variant" | "missing" {
  const paths = [...tree.keys()].flatMap((p) => p.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/")));
  if (paths.includes(path)) return "found";
  const prefixes = path.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  const twin = (q: string) => paths.some((p) => p !== q && p.toLowerCase() === q.toLowerCase());
  return prefixes.some(twin) ? "variant" : "missing";
}

const norm = (text: string) => text.replace(/\r\n?/g, "\n");
const sha = (text: string) => createHash("sha256").update(norm(text)).digest("hex");

type Row = readonly [kind: "exists" | "absent" | "contains" | "lacks" | "unchanged", path: string, extra: string];

function modelStatus(tree: ModelTree, [kind, path, extra]: Row): "hold" | "diverge" | "fault" {
  const where = modelLocate(tree, path);
  const content = tree.get(path);
  if (kind === "exists") return where === "found" ? "hold" : "diverge";
  if (kind === "absent") return where === "missing" ? "hold" : "diverge";
  if (where !== "found") return "diverge";
  if (content === undefined) return "fault"; // a directory where a file is needed
  if (kind === "contains") return norm(content).includes(extra) ? "hold" : "diverge";
  if (kind === "lacks") return norm(content).includes(extra) ? "diverge" : "hold";
  return sha(content) === extra ? "hold" : "diverge";
}

const pathArb = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 2 }).map((parts) => parts.join("/"));
const treeArb = fc.array(fc.tuple(pathArb, fc.constantFrom(...CONTENTS)), { maxLength: 8 }).map((files) => {
  const tree: ModelTree = new Map();
  for (const [path, content] of files) {
    const clash = [...tree.keys()].some((p) => p.startsWith(`${path}/`) || path.startsWith(`${p}/`));
    if (!clash) tree.set(path, content);
  }
  return tree;
});
const rowArb = (paths: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom("exists", "absent", "contains", "lacks", "unchanged") as fc.Arbitrary<Row[0]>,
      fc.constantFrom(...paths),
      fc.constantFrom(...LITERALS),
      fc.constantFrom(...CONTENTS),
    )
    .map(([kind, path, literal, content]): Row => [kind, path, kind === "unchanged" ? sha(content) : literal]);
// Rows name the tree's files, their directories, and paths up to three deep that may be missing
// under a directory that exists exactly, under a case twin of one, or under a missing parent.
const askedArb = fc.array(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }), { maxLength: 4 });
const caseArb = fc.tuple(treeArb, askedArb).chain(([tree, asked]) => {
  const dirs = [...tree.keys()].flatMap((p) =>
    p
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  );
  const paths = [...new Set([...tree.keys(), ...dirs, ...asked.map((parts) => parts.join("/")), "a", "b/a", "A/ab"])];
  return fc.tuple(fc.constant(tree), fc.array(rowArb(paths), { minLength: 1, maxLength: 8 }));
});

// Checks the rows over a memfs copy of `model` and holds the report to the model: each row's
// status, or the first row the model calls a fault.
async function agreesWithModel(model: ModelTree, rows: readonly Row[]): Promise<void> {
  const { tree } = fixtureTree(Object.fromEntries(model));
  const plan = rows.map((r) => (r[0] === "exists" || r[0] === "absent" ? `${r[0]}\t${r[1]}` : r.join("\t"))).join("\n");
  const want = rows.map((r) => modelStatus(model, r));
  const result = await checkTree({ tree, assumptions: parseAssumptions(plan)._unsafeUnwrap() });
  const firstFault = want.indexOf("fault");
  if (firstFault !== -1) {
    expect(result._unsafeUnwrapErr()).toMatchObject({ code: "not-a-file", line: firstFault + 1 });
    return;
  }
  const report = result._unsafeUnwrap();
  expect(report.rows.map((r) => r.status)).toEqual(want);
  expect(report.verdict).toBe(want.every((s) => s === "hold") ? "holds" : "diverged");
}

describe("checkTree agrees with a small independent model", () => {
  test("generated memfs trees and generated assumptions", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, ([model, rows]) => agreesWithModel(model, rows)),
      { numRuns: 400 },
    );
  });
});

describe("checkTree agrees with the model on deep paths", () => {
  // Paths 9 to 16 levels deep, past where the plain-directory lookups stop climbing from below and
  // look from the top: a shared trunk, branches and case twins off it, and rows asking at every
  // depth, under missing parents and under twins.
  const trunk = ["a", "b", "a", "ab", "b", "a", "aB", "b", "a", "b", "ab", "a"];
  const deepArb = fc
    .tuple(
      fc.array(
        fc.tuple(fc.integer({ min: 1, max: trunk.length }), fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }), fc.constantFrom(...CONTENTS)),
        { minLength: 1, maxLength: 6 },
      ),
      fc.array(fc.tuple(fc.integer({ min: 0, max: trunk.length }), fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 })), {
        minLength: 1,
        maxLength: 8,
      }),
    )
    .chain(([files, asks]) => {
      const tree: ModelTree = new Map();
      for (const [depth, rest, content] of files) {
        const path = [...trunk.slice(0, depth), ...rest].join("/");
        const clash = [...tree.keys()].some((p) => p === path || p.startsWith(`${path}/`) || path.startsWith(`${p}/`));
        if (!clash) tree.set(path, content);
      }
      const paths = [...new Set([...tree.keys(), ...asks.map(([depth, rest]) => [...trunk.slice(0, depth), ...rest].join("/"))])];
      return fc.tuple(fc.constant(tree), fc.array(rowArb(paths), { minLength: 1, maxLength: 10 }));
    });
  test("generated memfs trees and rows at every depth", async () => {
    await fc.assert(
      fc.asyncProperty(deepArb, ([model, rows]) => agreesWithModel(model, rows)),
      { numRuns: 300 },
    );
  });
});

// Latin letters that have a Cyrillic look-alike, lower and upper: a whole word respelled in one script.
const TWINS: Record<string, string> = { a: "\u0430", c: "\u0441", e: "\u0435", o: "\u043e", p: "\u0440", x: "\u0445", y: "\u0443" };

describe("variants of existing names never let absent hold", () => {
  const wordArb = fc.array(fc.constantFrom(...Object.keys(TWINS)), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(""));
  const respelling = fc.tuple(fc.boolean(), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }));
  test("case flips and whole-word Cyrillic respellings of an existing file diverge", async () => {
    await fc.assert(
      fc.asyncProperty(wordArb, respelling, async (word, [cyrillic, uppers]) => {
        const { tree } = fixtureTree({ [`src/${word}.ts`]: "" });
        const letters = [...word].map((ch, i) => {
          const twin = cyrillic ? (TWINS[ch] ?? ch) : ch;
          return uppers[i] ? twin.toUpperCase() : twin;
        });
        const plan = parseAssumptions(`absent\tsrc/${letters.join("")}.ts`)._unsafeUnwrap();
        const report = (await checkTree({ tree, assumptions: plan }))._unsafeUnwrap();
        expect(report.rows[0]?.status).toBe("diverge");
      }),
      { numRuns: 150 },
    );
  });
});

describe("a variant spelling meets the fault of the entry it names, at every depth and in every reader", () => {
  // Entries whose every mention is a fault: a nested repository (a gitlink in a commit), links out
  // of the root or looping, a directory that cannot be listed. Named under a case variant as the
  // LAST component, they used to be judged as a variant (a verdict); one level deeper, exactly
  // spelled, or read through --ref, they were the fault. Now one fault, whatever the spelling.
  const FAULT: Record<string, string> = { sub: "submodule", abs: "link-outside-root", out: "link-outside-root", loop: "link-loop", locked: "tree-io" };
  type Fs = Pick<typeof import("node:fs"), "mkdirSync" | "writeFileSync" | "symlinkSync">;
  const build = (fs: Fs, root: string) => {
    for (const dir of ["sub/.git", "locked"]) fs.mkdirSync(`${root}/${dir}`, { recursive: true });
    fs.writeFileSync(`${root}/sub/.git/HEAD`, "ref: refs/heads/main\n");
    fs.writeFileSync(`${root}/locked/a.txt`, "x");
    fs.writeFileSync(`${root}/f.txt`, "x");
    fs.symlinkSync("/etc/passwd", `${root}/abs`);
    fs.symlinkSync("../elsewhere", `${root}/out`);
    fs.symlinkSync("loop", `${root}/loop`);
  };
  // The directory `locked` cannot be listed (EACCES cannot be had as root): injected, in every reader.
  const locked = (tree: TreeReader) =>
    faultyTree(tree, (op, path) => (op === "list" && path === "locked" ? { code: "tree-io", path, message: "cannot read locked: EACCES" } : undefined));
  async function readers(): Promise<Record<string, TreeReader>> {
    const base = await tempDir("decay-variant-fault-");
    const { fs } = memfs();
    build(fs as unknown as Fs, "/t");
    build(await import("node:fs"), mkdirIn(base, "disk"));
    const repo = mkdirIn(base, "repo");
    git(repo, "init", "-q", "-b", "main");
    build(await import("node:fs"), repo);
    rmSync(join(repo, "sub"), { recursive: true });
    git(repo, "add", "-A");
    git(repo, "update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},sub`);
    git(repo, "commit", "-q", "-m", "faults");
    const trees = {
      memfs: memfsTree(fs as never, "/t"),
      node: nodeTree(join(base, "disk")),
      git: gitTree({ fs: await import("node:fs"), dir: repo, ref: "HEAD" }),
    };
    return Object.fromEntries(Object.entries(trees).map(([k, t]) => [k, locked(t)]));
  }
  const spelling = fc.tuple(fc.constantFrom(...Object.keys(FAULT)), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }));
  const rowKind = fc.constantFrom("exists\t", "absent\t", "contains\t", "lacks\t", "unchanged\t");
  test("property: the same fault code for an exact or variant spelling, as the last component or above it", async () => {
    const trees = await readers();
    await fc.assert(
      fc.asyncProperty(spelling, rowKind, fc.constantFrom("", "/", "/x.ts"), async ([name, uppers], kind, below) => {
        const spelled = [...name].map((ch, i) => (uppers[i] ? ch.toUpperCase() : ch)).join("");
        const path = spelled + (kind === "exists\t" || kind === "absent\t" ? below : below === "/" ? "" : below);
        const row =
          kind === "unchanged\t"
            ? `${kind}${path}\t${"0".repeat(64)}`
            : kind.startsWith("exists") || kind.startsWith("absent")
              ? `${kind}${path}`
              : `${kind}${path}\tx`;
        const assumptions = parseAssumptions(row)._unsafeUnwrap();
        for (const [reader, tree] of Object.entries(trees)) {
          const got = await checkTree({ tree, assumptions });
          expect([reader, row, got.isOk() ? got.value.rows[0]?.status : got.error.code]).toEqual([reader, row, FAULT[name]]);
        }
      }),
      { numRuns: 120 },
    );
  });
});

describe("memfs and a real directory give one answer", () => {
  // Trees the model above leaves out: NFC/NFD and case twins, a cross-script look-alike, a nested
  // repository, and links inside the root, dangling, looping and leading out of it. Each tree is built in memfs
  // and on disk, and each plan checked through memfsTree and through nodeTree: the same report,
  // or the same first fault (code, path and line), every time.
  const FILES = ["a.ts", "A.ts", "d/x.ts", "D/x.ts", "d/e/y.ts", "caf\u00e9.ts", "cafe\u0301.ts", "\u0430\u0441\u0435.ts", "ace.ts", "sub/.git/HEAD"] as const;
  const LINKS: Record<string, string> = {
    "l.ts": "a.ts",
    dl: "d",
    up: "d/../d/e",
    out: "../elsewhere",
    loop: "loop",
    gone: "nope.ts",
    "d/back": "..",
  };
  const PATHS = [
    "a.ts",
    "A.ts",
    "b.ts",
    "d/x.ts",
    "D/x.ts",
    "d/X.ts",
    "d/e/y.ts",
    "D/E/Y.ts",
    "caf\u00e9.ts",
    "ace.ts",
    "\u0430\u0441\u0435.ts",
    "l.ts",
    "L.ts",
    "dl/x.ts",
    "dl/e/y.ts",
    "up/y.ts",
    "out",
    "out/x.ts",
    "loop",
    "gone",
    "d/back/a.ts",
    "d/back/d/x.ts",
    "d",
    "d/e",
    // A nested repository, and links out and looping, under variant spellings too.
    "sub",
    "Sub",
    "Sub/x.ts",
    "OUT",
    "LOOP",
    "Gone",
  ] as const;
  const treeArb = fc.tuple(fc.subarray([...FILES]), fc.subarray(Object.keys(LINKS)), fc.constantFrom("x", "y\r\n", "xy"));
  const rowArb = fc
    .tuple(fc.constantFrom("exists", "absent", "contains", "lacks", "unchanged"), fc.constantFrom(...PATHS), fc.boolean())
    .map(([kind, path, slash]) => {
      if (kind === "exists" || kind === "absent") return `${kind}\t${path}${slash ? "/" : ""}`;
      return kind === "unchanged" ? `${kind}\t${path}\t${"0".repeat(64)}` : `${kind}\t${path}\tx`;
    });
  const outcome = (got: Awaited<ReturnType<typeof checkTree>>) => {
    if (got.isOk()) return { verdict: got.value.verdict, rows: got.value.rows };
    const e = got.error as { code: string; path?: string; line?: number };
    return { code: e.code, path: e.path, line: e.line };
  };
  test("on generated trees with twins, look-alikes and links", async () => {
    const base = await tempDir("decay-parity-");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(treeArb, fc.array(rowArb, { minLength: 1, maxLength: 6 }), async ([files, links, content], plan) => {
        const fileMap = Object.fromEntries(files.map((f) => [f, content]));
        const linkMap = Object.fromEntries(links.map((l) => [l, LINKS[l] as string]));
        const { tree } = fixtureTree(fileMap, linkMap);
        const dir = join(base, String((n += 1)), "t");
        for (const [path, text] of Object.entries(fileMap)) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), text);
        }
        mkdirSync(dir, { recursive: true });
        for (const [path, target] of Object.entries(linkMap)) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          symlinkSync(target, join(dir, path));
        }
        const assumptions = parseAssumptions(plan.join("\n"))._unsafeUnwrap();
        const inMemory = await checkTree({ tree, assumptions });
        const onDisk = await checkTree({ tree: nodeTree(dir), assumptions });
        expect(outcome(onDisk)).toEqual(outcome(inMemory));
      }),
      { numRuns: 200 },
    );
  });
});

describe("a path through a link to a directory is judged as the path it leads to", () => {
  // `alias` and the chain `via -> alias` lead to `real`, which may hold case and NFC/NFD twins;
  // `Alias` beside the link sometimes makes every row through `alias` a case variant. A row
  // through a link must get the status and detail of the same row at `real`, spelled through
  // the link, whichever row of the plan first reaches the link.
  const NAMES = ["a.ts", "A.ts", "b.ts", "caf\u00e9.ts", "cafe\u0301.ts", "sub/c.ts", "Sub/c.ts"] as const;
  const ASKED = ["a.ts", "A.ts", "b.ts", "c.ts", "caf\u00e9.ts", "sub/c.ts", "sub/x.ts", "SUB/c.ts", "none/x.ts", "sub"] as const;
  const rowArb = fc
    .tuple(fc.constantFrom("exists", "absent", "contains", "lacks", "unchanged"), fc.constantFrom(...ASKED))
    .map(([kind, rest]) => (via: string) => {
      const path = `${via}/${rest}`;
      if (kind === "exists" || kind === "absent") return `${kind}\t${path}`;
      return kind === "unchanged" ? `${kind}\t${path}\t${"0".repeat(64)}` : `${kind}\t${path}\tx`;
    });
  const outcome = async (tree: ReturnType<typeof fixtureTree>["tree"], plan: string) => {
    const got = await checkTree({ tree, assumptions: parseAssumptions(plan)._unsafeUnwrap() });
    if (got.isErr()) return { code: got.error.code, line: (got.error as { line?: number }).line };
    return got.value.rows.map((r) => [r.status, r.detail, r.spelled]);
  };
  test("for every row, through one link or a chain of two, in any order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...NAMES], { minLength: 1 }),
        fc.boolean(),
        fc.array(fc.tuple(rowArb, fc.constantFrom("alias", "via")), { minLength: 1, maxLength: 6 }),
        async (names, twin, rows) => {
          const files = Object.fromEntries(names.map((n) => [`real/${n}`, "x"]));
          if (twin) files["Alias/a.ts"] = "x";
          const { tree } = fixtureTree(files, { alias: "real", via: "alias" });
          const through = await outcome(tree, rows.map(([row, via]) => row(via)).join("\n"));
          const direct = await outcome(tree, rows.map(([row]) => row("real")).join("\n"));
          if (!twin) {
            // The same answers, each spelled through the link its row names.
            const respelled = (k: number, text: unknown) => (typeof text === "string" ? text.replace(/\breal\//, `${rows[k]?.[1]}/`) : text);
            expect(through).toEqual(Array.isArray(direct) ? direct.map((r, k) => r.map((field) => respelled(k, field))) : direct);
            return;
          }
          // With `Alias` beside it, no row through `alias` holds unless it holds at `real` too.
          if (Array.isArray(through) && Array.isArray(direct)) {
            through.forEach((r, k) => {
              if (r[0] === "hold" && rows[k]?.[1] === "alias") expect(direct[k]?.[0]).toBe("hold");
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
