// Rows under one plan directory share one scan of its spellings (`scanLeaves`) and look at their
// last level alone (`viaLeaves`). Held here to the full walk of each path, on generated trees of
// case twins, confusable names, links (to directories, files, nowhere, out of the root, in loops),
// files where a directory is asked for, and nested repositories.
import fc from "fast-check";
import { ok } from "neverthrow";
import { describe, expect, test } from "vitest";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { judgeAll } from "./check.js";
import { type Located, locate } from "./locate.js";
import { parseAssumptions } from "./parse.js";
import { createLocator } from "./plain.js";
import { child } from "./tree-path.js";
import { arrive, type Locating } from "./walk.js";

const NAMES = ["a", "A", "b", "B", "ab", "aB", "\u0430"] as const;
const name = fc.constantFrom(...NAMES);
const relPath = (min: number, max: number) => fc.array(name, { minLength: min, maxLength: max }).map((p) => p.join("/"));
const target = fc.oneof(
  relPath(1, 3),
  fc.tuple(fc.integer({ min: 1, max: 3 }), relPath(0, 2)).map(([up, down]) => `${"../".repeat(up)}${down}`),
  fc.constantFrom(".", "..", "nowhere", "/abs", "../../../../x"),
);

const caseArb = fc.record({
  files: fc.array(relPath(1, 4), { minLength: 1, maxLength: 14 }),
  links: fc.array(fc.tuple(relPath(1, 3), target), { maxLength: 5 }),
  repos: fc.array(relPath(1, 2), { maxLength: 1 }),
  asked: fc.array(relPath(2, 5), { minLength: 1, maxLength: 12 }),
});

// The tree: files (a path that is a prefix of another file's is left a directory), links where
// nothing else is, and `.git` in the repositories' directories.
function build({ files, links, repos }: { files: string[]; links: [string, string][]; repos: string[] }) {
  const taken = new Set<string>();
  const prefixes = (p: string) => p.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"));
  const tree: Record<string, string> = {};
  for (const f of [...files, ...repos.map((r) => `${r}/.git/HEAD`)]) {
    if (prefixes(f).some((p) => p in tree) || [...taken].some((t) => t.startsWith(`${f}/`))) continue;
    tree[f] = "x";
    for (const p of prefixes(f)) taken.add(p);
  }
  const made: Record<string, string> = {};
  for (const [at, to] of links) {
    if (prefixes(at).some((p) => p in tree || p in made) || taken.has(at)) continue;
    made[at] = to;
    for (const p of prefixes(at).slice(0, -1)) taken.add(p);
  }
  return fixtureTree(tree, made).tree;
}

describe("a plan directory scanned once answers each row as its own walk would", () => {
  test("generated trees: every asked path, through one locator, equals its full walk", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const tree = build(c);
        const shared = createLocator(tree);
        for (const path of c.asked) {
          const want = await locate(createLocator(tree), path, false);
          const got = await locate(shared, path);
          expect(got.isOk() ? { ok: got.value } : { err: got.error }, path).toEqual(want.isOk() ? { ok: want.value } : { err: want.error });
        }
      }),
      { numRuns: 600 },
    );
  });

  test("twelve levels of case twins: a missing file is a variant, at its last level's cost per row", async () => {
    const files: Record<string, string> = {};
    let dirs = [""];
    for (let level = 0; level < 12; level += 1) dirs = dirs.flatMap((d) => [`${d}a/`, `${d}A/`]);
    for (const d of dirs) files[`${d}f.txt`] = "x";
    const tree = fixtureTree(files).tree;
    const loc = createLocator(tree);
    const path = "a/".repeat(12);
    expect((await locate(loc, `${path}f.txt`))._unsafeUnwrap()).toMatchObject({ state: "found" });
    for (let r = 0; r < 50; r += 1) {
      expect((await locate(loc, `${path}missing${r}.txt`))._unsafeUnwrap()).toEqual({ state: "variant", spelled: `${"a/".repeat(11)}A`, how: "case" });
    }
    // The 4,096 leaves were scanned once, for the first missing row, not once per row.
    expect(loc.scans.size).toBe(1);
  });

  test("a crowded directory's rows, judged in many groups, share one scan, let go once they are all located", async () => {
    // 64 case spellings each of `abcdef` and `uvwxyz`, each holding a file; 300 rows of new names
    // under each (groups of at most 64 rows): each directory's spellings are scanned once for all
    // its groups, and its scan is let go before the next directory's is made.
    const files: Record<string, string> = {};
    for (const word of ["abcdef", "uvwxyz"]) {
      for (let mask = 0; mask < 64; mask += 1) files[`${[...word].map((c, i) => ((mask >> i) & 1 ? c.toUpperCase() : c)).join("")}/f${mask}.txt`] = "x";
    }
    const plan = ["abcdef", "uvwxyz"].flatMap((dir) => Array.from({ length: 300 }, (_, r) => `absent\t${dir}/new${r}.md\n`)).join("");
    const loc = createLocator(fixtureTree(files).tree);
    const made: string[] = [];
    const set = loc.scans.set.bind(loc.scans);
    loc.scans.set = (dir, scan) => {
      made.push(`${dir} beside ${loc.scans.size}`);
      return set(dir, scan);
    };
    const outcome = await judgeAll(loc, parseAssumptions(plan)._unsafeUnwrap(), 1 << 20);
    expect(made).toEqual(["abcdef beside 0", "uvwxyz beside 0"]);
    // Each row answers as when it is the plan's only row (walked alone, no scan).
    for (const [k, dir] of [
      [0, "abcdef"],
      [300, "uvwxyz"],
    ] as const) {
      const alone = await judgeAll(createLocator(fixtureTree(files).tree), parseAssumptions(`absent\t${dir}/new0.md`)._unsafeUnwrap(), 1 << 20);
      const want = "rows" in alone ? `${alone.rows[0]?.status}: ${alone.rows[0]?.detail}` : "a fault";
      expect(want).toMatch(/^diverge: .*\(a case variant\)$/);
      expect("rows" in outcome && outcome.rows.slice(k, k + 300).map((r) => `${r.status}: ${r.detail}`)).toEqual(Array(300).fill(want));
    }
  });
});

// Every spelling of `abc` a directory may hold, and what each may be: a file, a directory, a
// nested repository, or a link (to a file, to nowhere, out of the root, to itself).
const SPELLINGS = ["abc", "abC", "aBc", "aBC", "Abc", "AbC", "ABc", "ABC"] as const;
// And of `aco` in Latin and Cyrillic letters (а, с, о): confusable spellings, none a case spelling of another.
const LOOK_ALIKES = ["aco", "ac\u043e", "a\u0441o", "a\u0441\u043e", "\u0430co", "\u0430c\u043e", "\u0430\u0441o", "\u0430\u0441\u043e"] as const;
const KINDS = ["file", "file", "file", "dir", "repo", "to-file", "dangling", "outside", "loop"] as const;
// Puts `kind` at `at` (a path under the top, `target.txt` there): links climb back to the top.
function place(files: Record<string, string>, links: Record<string, string>, at: string, kind: (typeof KINDS)[number]): void {
  const up = "../".repeat(at.split("/").length - 1);
  const name = at.split("/").pop() as string;
  if (kind === "file") files[at] = "x";
  else if (kind === "dir") files[`${at}/inner.txt`] = "x";
  else if (kind === "repo") files[`${at}/.git/HEAD`] = "ref: refs/heads/main";
  else links[at] = { "to-file": `${up}target.txt`, dangling: "nowhere", outside: `${up}../x`, loop: name }[kind];
}

const crowdArb = fc.record({
  spellings: fc.constantFrom(SPELLINGS, LOOK_ALIKES),
  held: fc.dictionary(fc.constantFrom(...SPELLINGS.keys()).map(String), fc.constantFrom(...KINDS), { minKeys: 1 }),
  // Under twin parents (`d/` and `D/`) the rows go through the shared scan; under one, a plain walk.
  twins: fc.boolean(),
});

// What the walk's last level answers for a name its directory does not hold exactly: each case
// spelling there arrived at in listing order, the first fault the answer, else the first spelling
// as a variant. Computed from the listing and `arrive` alone.
// With no case spelling there, the same over its confusable spellings.
async function lastLevelRule(tree: ReturnType<typeof fixtureTree>["tree"], dir: string, spelledDir: string, name: string): Promise<Locating> {
  const { listings } = createLocator(tree);
  const index = (await listings.index(dir))._unsafeUnwrap();
  let first: Located | undefined;
  const cased = index.caseVariants(name);
  const how = cased.length > 0 ? "case" : "confusable";
  for (const entry of cased.length > 0 ? cased : index.confusableGroup(name).entries) {
    const got = await arrive(listings, child(dir, entry.name), child(spelledDir, entry.name), entry, 0);
    if (got.isErr()) return got;
    first ??= { state: "variant", spelled: child(spelledDir, entry.name), how };
  }
  return ok(first ?? { state: "missing" });
}

describe("a name not held exactly among many case or confusable spellings of it", () => {
  test("property: its answer is the first fault among them in the names' order, else the first as a variant", async () => {
    await fc.assert(
      fc.asyncProperty(crowdArb, async ({ spellings, held: byPosition, twins }) => {
        const held = Object.fromEntries(Object.entries(byPosition).map(([k, kind]) => [spellings[Number(k)] as string, kind]));
        const files: Record<string, string> = { "target.txt": "x" };
        const links: Record<string, string> = {};
        const parents = twins ? ["d", "D"] : ["d"];
        for (const parent of parents) {
          for (const [spelling, kind] of Object.entries(held)) {
            place(files, links, `${parent}/${spelling}`, kind);
          }
        }
        const { tree } = fixtureTree(files, links);
        const shared = createLocator(tree);
        for (const asked of spellings.filter((s) => !(s in held))) {
          // Under twins the walk meets `D/` too, but `d/` comes first and holds the same spellings;
          // when nothing there leads anywhere, `D/` is the answer: a case variant of the path.
          const inD = await lastLevelRule(tree, "d", "d", asked);
          const want = twins && inD.isOk() && inD.value.state === "missing" ? ok<Located>({ state: "variant", spelled: "D", how: "case" }) : inD;
          const settle = (got: Locating) => (got.isOk() ? { ok: got.value } : { err: got.error });
          expect(settle(await locate(shared, `d/${asked}`)), asked).toEqual(settle(want));
          expect(settle(await locate(createLocator(tree), `d/${asked}`, false)), asked).toEqual(settle(want));
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("the answer from a missing name's spellings, made once for all its rows", () => {
  const settle = (got: Locating) => (got.isOk() ? { ok: got.value } : { err: got.error });
  test("is the one for where the walk stands: the same directory by another spelling, or after more links", async () => {
    // `d` holds directory spellings of `abc` (none spelled so): `l -> d` and `m -> d` reach it by
    // other names, and `far/` by a chain of 37 links; `ABc` there is a chain of 8 links to a directory,
    // which a path already 37 links deep cannot follow (more than 40).
    const files: Record<string, string> = { "d/ABC/x": "x", "d/Abc/x": "x", "t/x": "x" };
    const links: Record<string, string> = { l: "d", m: "d", c0: "d" };
    for (let k = 1; k <= 35; k += 1) links[`c${k}`] = `c${k - 1}`;
    links.far = "c35";
    for (let k = 1; k <= 7; k += 1) links[`d/h${k}`] = k === 1 ? "../t" : `h${k - 1}`;
    links["d/ABc"] = "h7";
    const { tree } = fixtureTree(files, links);
    const shared = createLocator(tree);
    for (const path of ["d/abc", "l/abc", "m/abc", "far/abc", "d/aBC", "m/aBC", "l/aBC", "far/aBC", "d/abc", "far/abc"]) {
      const alone = await locate(createLocator(tree), path, false);
      expect(settle(await locate(shared, path)), path).toEqual(settle(alone));
    }
    // What the two kinds of place answer, so that the comparison above is between different answers.
    expect(settle(await locate(createLocator(tree), "l/abc", false))).toEqual({ ok: { state: "variant", spelled: "l/ABC", how: "case" } });
    expect(settle(await locate(createLocator(tree), "far/abc", false))).toMatchObject({ err: { code: "link-loop" } });
  });
});

// Many spellings of the plan directory (`abc` in every case, `aco` in Latin and Cyrillic), each
// holding a few of the names the rows ask for, as anything a walk can meet there. The names come in
// families of spellings of one name: folds that are not ASCII or not themselves (`ß`, Kelvin sign,
// final sigma, dotless i, `ﬀ`), NFD spellings and confusables. A run takes a few spellings of the
// directory and one to three families, so leaves hold several spellings of one name and rows ask
// for them; rows repeat (a scan indexes its leaves only after enough looks), one after another or
// all at once.
const DIR_SPELLINGS = [...SPELLINGS, ...LOOK_ALIKES] as const;
const FAMILIES = [
  ["f", "F", "g"],
  ["ss", "SS", "\u00df", "\u1e9e"],
  ["k", "K", "\u212a"],
  ["\u03c3", "\u03a3", "\u03c2"],
  ["i", "I", "\u0131", "\u0130"],
  ["ff", "\ufb00", "FF"],
  ["\u00e9", "e\u0301", "\u00c9", "E\u0301"],
  ["\u00fd", "y\u0301", "\u00dd"],
  ["a", "\u0430", "A"],
  ["o", "\u043e", "\u03bf"],
  ["s", "\u017f", "\u0455", "p", "\u0440"],
];
const dirCrowdArb = fc
  .record({
    dirs: fc.subarray([...DIR_SPELLINGS], { minLength: 2, maxLength: 6 }),
    names: fc.subarray(FAMILIES, { minLength: 1, maxLength: 3 }).map((f) => f.flat()),
    repeat: fc.integer({ min: 1, max: 10 }),
    together: fc.boolean(),
  })
  .chain(({ dirs, names, repeat, together }) =>
    fc.record({
      entries: fc.array(fc.tuple(fc.constantFrom(...dirs), fc.constantFrom(...names), fc.constantFrom(...KINDS)), { minLength: 1, maxLength: 30 }),
      // A spelling of the directory with nothing under it may be no directory at all: a spelling on
      // the way that leads nowhere.
      ends: fc
        .array(fc.constantFrom("none", "file", "to-file", "dangling"), { minLength: dirs.length, maxLength: dirs.length })
        .map((k) => Object.fromEntries(dirs.map((d, i) => [d, k[i] as "none" | "file" | "to-file" | "dangling"]))),
      asked: fc.array(fc.tuple(fc.constantFrom("abc", "ABC", "aco", "\u0430co"), fc.constantFrom(...names, "new")), { minLength: 1, maxLength: 30 }),
      repeat: fc.constant(repeat),
      together: fc.constant(together),
    }),
  );

describe("rows under a plan directory spelled many ways", () => {
  test("property: through one locator (its leaves indexed by spelling once rows have looked in them often enough), each row answers as its own walk", async () => {
    await fc.assert(
      fc.asyncProperty(dirCrowdArb, async ({ entries, ends, asked, repeat, together }) => {
        const files: Record<string, string> = { "target.txt": "x" };
        const links: Record<string, string> = {};
        for (const [dir, name, kind] of entries) {
          const at = `top/${dir}/${name}`;
          if (!(at in files || at in links || `${at}/inner.txt` in files || `${at}/.git/HEAD` in files)) place(files, links, at, kind);
        }
        for (const [dir, kind] of Object.entries(ends)) {
          const used = entries.some(([d]) => d === dir);
          if (!used && kind !== "none") place(files, links, `top/${dir}`, kind === "dangling" ? "dangling" : kind === "file" ? "file" : "to-file");
        }
        const { tree } = fixtureTree(files, links);
        const shared = createLocator(tree);
        const settle = (got: Locating) => (got.isOk() ? { ok: got.value } : { err: got.error });
        const paths = Array.from({ length: repeat }, () => asked.map(([dir, name]) => `top/${dir}/${name.normalize("NFC")}`)).flat();
        const all = together ? await Promise.all(paths.map((path) => locate(shared, path))) : undefined;
        for (const [k, path] of paths.entries()) {
          const got = all?.[k] ?? (await locate(shared, path));
          expect(settle(got), path).toEqual(settle(await locate(createLocator(tree), path, false)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
