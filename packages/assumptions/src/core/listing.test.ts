import fc from "fast-check";
import { describe, expect, test } from "vitest";
import * as reference from "../../test/support/unicode-reference.js";
import type { DirEntry, EntryType } from "../tree.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { buildIndex, type DirIndex } from "./dir-index.js";
import { locate } from "./locate.js";
import { createLocator, forgetLocated, levelsOf } from "./plain.js";

// Pieces names are made of: ASCII, a precomposed and a decomposed é, the Kelvin sign (whose NFC
// is the ASCII K), and a Cyrillic а. Two spellings of one NFC name are therefore common.
const PIECES = ["a", "b", "K", "k", "\u212a", "e", "\u00e9", "e\u0301", ".", "1", "\u0430"];
const TYPES: readonly EntryType[] = ["file", "directory", "symlink", "other"];

const namesOf = (pieces: readonly string[]) => fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""));
const listingOf = (names: fc.Arbitrary<string>) =>
  fc.uniqueArray(fc.record({ name: names, type: fc.constantFrom(...TYPES) }), { selector: (e) => e.name, maxLength: 12 });
const nameArb = namesOf(PIECES);
const entriesArb = listingOf(nameArb);

// For case variants, add the sharp s (whose fold is "ss", two letters) and capitals beside it.
const CASE_PIECES = [...PIECES, "\u00df", "s", "S", "A"];
const caseNameArb = namesOf(CASE_PIECES);

// Full case folding, for these pieces only: NFC, ß to "ss", then lower case (which takes the
// Kelvin sign to k).
function foldModel(name: string): string {
  return name.normalize("NFC").replaceAll("\u00df", "ss").toLowerCase().normalize("NFC");
}

function indexOf(entries: readonly DirEntry[]): DirIndex {
  return buildIndex(entries);
}

// What `exact` says, in a form that does not depend on the listing order.
function exactly(index: DirIndex, name: string): string | readonly string[] | undefined {
  const hit = index.exact(name);
  if (hit === undefined) return undefined;
  return "entry" in hit ? hit.entry.name : hit.ambiguous.map((e) => e.name).sort();
}

const byName = (a: DirEntry, b: DirEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

// The listing sorted as Node gives it, and in some other order picked by the seed.
function bothOrders(entries: readonly DirEntry[], seed: number): readonly (readonly DirEntry[])[] {
  const sorted = [...entries].sort(byName);
  const at = entries.length === 0 ? 0 : Math.abs(seed) % entries.length;
  const shuffled = seed % 2 === 0 ? [...sorted].reverse() : [...entries.slice(at), ...entries.slice(0, at)];
  return [sorted, shuffled];
}

describe("a directory's exact lookups", () => {
  test("agree with the definition (entries whose NFC is the name) whether or not the listing comes sorted", () => {
    fc.assert(
      fc.property(entriesArb, fc.array(nameArb, { maxLength: 6 }), fc.integer(), (entries, extra, seed) => {
        const queries = [...entries.map((e) => e.name.normalize("NFC")), ...extra.map((n) => n.normalize("NFC"))];
        const raws = [...entries.map((e) => e.name), ...extra];
        const indexes = bothOrders(entries, seed).map(indexOf);
        for (const q of queries) {
          const spellings = entries
            .filter((e) => e.name.normalize("NFC") === q)
            .map((e) => e.name)
            .sort();
          const expected = spellings.length === 0 ? undefined : spellings.length === 1 ? spellings[0] : spellings;
          for (const index of indexes) expect(exactly(index, q)).toEqual(expected);
        }
        for (const raw of raws) {
          const expected = entries.find((e) => e.name === raw);
          for (const index of indexes) expect(index.named(raw)).toEqual(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("two spellings of one name are named in the names' order, however the directory listed them", () => {
    const entries: DirEntry[] = [
      { name: "Key", type: "file" },
      { name: "caf\u00e9", type: "file" },
      { name: "cafe\u0301", type: "directory" },
      { name: "\u212aey", type: "file" },
    ];
    for (const listed of [entries, [...entries].reverse()]) {
      const index = indexOf(listed);
      expect(index.exact("Key")).toEqual({ ambiguous: [entries[0], entries[3]] });
      expect(index.exact("caf\u00e9")).toEqual({ ambiguous: [entries[2], entries[1]] });
    }
    const index = indexOf(entries);
    expect(index.exact("key")).toBeUndefined();
    expect(index.named("\u212aey")).toEqual(entries[3]);
  });
});

describe("a directory's case variants", () => {
  test("are the entries with the name's case fold but another NFC spelling, in the names' order however they were listed", () => {
    fc.assert(
      fc.property(listingOf(caseNameArb), fc.array(caseNameArb, { maxLength: 6 }), fc.integer(), (entries, extra, seed) => {
        const queries = [...entries.map((e) => e.name), ...extra].map((n) => n.normalize("NFC"));
        for (const listed of bothOrders(entries, seed)) {
          const index = indexOf(listed);
          for (const q of queries) {
            const expected = [...listed].sort(byName).filter((e) => foldModel(e.name) === foldModel(q) && e.name.normalize("NFC") !== q);
            expect(index.caseVariants(q)).toEqual(expected);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("find a capitalised entry, a sharp s and the Kelvin sign from a lower-case name", () => {
    const names = ["Readme", "readme", "stra\u00dfe", "\u212a"];
    const index = indexOf(names.map((name): DirEntry => ({ name, type: "file" })).sort(byName));
    expect(index.caseVariants("README").map((e) => e.name)).toEqual(["Readme", "readme"]);
    expect(index.caseVariants("readme").map((e) => e.name)).toEqual(["Readme"]);
    expect(index.caseVariants("STRASSE").map((e) => e.name)).toEqual(["stra\u00dfe"]);
    expect(index.caseVariants("k").map((e) => e.name)).toEqual(["\u212a"]);
    expect(index.caseVariants("K").map((e) => e.name)).toEqual([]);
  });
});

// Names an ASCII name's lookups skip only when they cannot match (ascii-reach.ts): letters that
// fold or look like ASCII (ß, the ligature fi, the Kelvin sign, Cyrillic а, ѕ, о), marks, Greek
// and Cyrillic that cannot, accented Latin; and `%`, the one ASCII character whose key is not ASCII.
// biome-ignore format: one line of pieces
const REACH_PIECES = ["%", "s", "S", "fi", "o", "a", "1", "l", "-", "\u00df", "\ufb01", "\u212a", "\u0430", "\u0455", "\u043e", "\u0301", "\u0308", "\u03c9", "\u03bc", "\u0434", "\u00e9", "\u1e9e"];
const reachName = fc.tuple(namesOf(REACH_PIECES), fc.constantFrom("NFC", "NFD", "as is")).map(([n, form]) => (form === "as is" ? n : n.normalize(form)));

describe("a directory's lookups for any name, ASCII or not", () => {
  test("property: give what the plain computation over every entry gives", () => {
    fc.assert(
      fc.property(listingOf(reachName), fc.array(reachName, { maxLength: 6 }), fc.integer(), (entries, extra, seed) => {
        // Each name also with its a, o and s spelled in Cyrillic: a look-alike that must find it.
        const lookAlikes = entries.map((e) => e.name.replace(/a/g, "\u0430").replace(/o/g, "\u043e").replace(/s/g, "\u0455"));
        const queries = [...entries.map((e) => e.name), ...extra, ...extra.map((n) => n.replace(/[^\x00-\x7f]/g, "")), ...lookAlikes].map((n) =>
          n.normalize("NFC"),
        );
        for (const listed of bothOrders(entries, seed)) {
          const index = indexOf(listed);
          // Answers come in the names' order whatever order the adapter listed them in.
          const sorted = [...listed].sort(byName);
          for (const q of queries) {
            const nfcOf = (e: DirEntry) => e.name.normalize("NFC");
            const fold = reference.caseFold(q);
            expect(index.caseVariants(q)).toEqual(sorted.filter((e) => reference.caseFold(e.name) === fold && nfcOf(e) !== q));
            const key = reference.confusableKey(q);
            const scripts = reference.scriptsOf(q);
            const confusable = (e: DirEntry) => {
              const theirs = reference.scriptsOf(e.name);
              return reference.confusableKey(nfcOf(e)) === key && scripts !== "" && theirs !== "" && theirs !== scripts;
            };
            const group = index.confusableGroup(q);
            expect(group.entries).toEqual(sorted.filter(confusable));
            expect(group.plain).toBe(group.entries.every((e) => e.type === "file" || e.type === "other"));
            expect(index.confusableGroup(q)).toBe(group);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
});

describe("a directory's lookups for a name in another script", () => {
  const files = (names: readonly string[]) => indexOf(names.map((name): DirEntry => ({ name, type: "file" })).sort(byName));

  test("find an ASCII name whose key is not ASCII either (it holds %)", () => {
    const index = files(["a%", "b%", "a", "rate%.txt"]);
    expect(index.confusableGroup("\u0430%").entries.map((e) => e.name)).toEqual(["a%"]);
    expect(index.confusableGroup("r\u0430te%.txt").entries.map((e) => e.name)).toEqual(["rate%.txt"]);
    expect(index.confusableGroup("\u0430").entries.map((e) => e.name)).toEqual(["a"]);
    // An ASCII and a Greek name on one key: in the directory's order.
    expect(
      files(["\u03b1%", "a%"])
        .confusableGroup("\u0430%")
        .entries.map((e) => e.name),
    ).toEqual(["a%", "\u03b1%"]);
  });

  test("find no ASCII name where neither the fold nor the key can be ASCII, and still find the names that are not", () => {
    const index = files(["handler.go", "obrabotchik.go", "\u043e\u0431\u0440\u0430\u0431\u043e\u0442\u0447\u0438\u043a.go"]);
    expect(index.confusableGroup("\u043e\u0431\u0440\u0430\u0431\u043e\u0442\u0447\u0438\u043a.go").entries).toEqual([]);
    expect(index.caseVariants("\u041e\u0431\u0440\u0430\u0431\u043e\u0442\u0447\u0438\u043a.go".normalize("NFC")).map((e) => e.name)).toEqual([
      "\u043e\u0431\u0440\u0430\u0431\u043e\u0442\u0447\u0438\u043a.go",
    ]);
    expect(files(["handler.go"]).caseVariants("\u041e\u0431.go")).toEqual([]);
  });
});

describe("a locator that forgets", () => {
  test("answers as before, listing again only what it is asked about after", async () => {
    const inner = fixtureTree({ "src/a.ts": "a", "src/Readme.md": "r", "lib/b.ts": "b" }, { "to-src": "src" }).tree;
    const listed: string[] = [];
    const loc = createLocator({ ...inner, list: (path) => (listed.push(path), inner.list(path)) });
    const ask = async (path: string) => (await locate(loc, path))._unsafeUnwrap();
    const before = [await ask("to-src/a.ts"), await ask("src/readme.md"), await ask("lib/gone.ts")];
    const listedBefore = listed.length;
    forgetLocated(loc);
    expect(loc.plain.size + loc.heldHashes.size + loc.starts.size + loc.listings.links.size + loc.listings.linkEnds.size).toBe(0);
    expect(loc.reached).toBeUndefined();
    expect(await ask("lib/gone.ts")).toEqual(before[2]);
    expect(listed.slice(listedBefore).sort()).toEqual(["", "lib"]);
    expect([await ask("to-src/a.ts"), await ask("src/readme.md")]).toEqual(before.slice(0, 2));
  });
});

describe("a locator's hashes of plan directories", () => {
  const files = { "a/b/c/f.txt": "f", "a/b/c/d/g.txt": "g", "k/H.txt": "h" };
  const ask = async (loc: ReturnType<typeof createLocator>, path: string) => (await locate(loc, path))._unsafeUnwrap();
  const paths = ["a/b/c/f.txt", "a/b/c/d/g.txt", "a/b/c/d/e/gone.txt", "k/h.txt", "a/x/y/z.txt"];

  test("a hash held for a directory plain does not hold (two prefixes sharing one) changes no answer", async () => {
    const honest = createLocator(fixtureTree(files).tree);
    const expected = [];
    for (const path of paths) expected.push(await ask(honest, path));
    const poisoned = createLocator(fixtureTree(files).tree);
    // As if every level of these directories shared its hash with a directory already resolved.
    for (const dir of ["a/b/c/d/e", "a/x/y", "k"]) for (const hash of levelsOf(dir).hashes) poisoned.heldHashes.add(hash);
    const got = [];
    for (const path of paths) got.push(await ask(poisoned, path));
    expect(got).toEqual(expected);
    expect(expected.map((l) => l.state)).toEqual(["found", "found", "missing", "variant", "missing"]);
  });

  test("one hash per level, the same for the same prefix of two paths", () => {
    const deep = levelsOf("src/lib/core");
    expect(deep.ends).toEqual([3, 7, 12]);
    expect(levelsOf("src/lib").hashes).toEqual(deep.hashes.slice(0, 2));
    expect(levelsOf("src/lid").hashes[1]).not.toBe(deep.hashes[1]);
    expect(levelsOf("")).toEqual({ ends: [], hashes: [] });
  });

  test("rows hundreds of levels down, under a missing directory and found, are answered from their plain ancestor", async () => {
    const chain = Array.from({ length: 300 }, (_, k) => `d${k}`).join("/");
    const loc = createLocator(fixtureTree({ [`${chain}/f.txt`]: "f", [`${chain}/F.TXT`]: "F" }).tree);
    expect((await ask(loc, `${chain}/f.txt`)).state).toBe("found");
    expect(await ask(loc, `${chain}/gone/x/y/f.txt`)).toEqual({ state: "missing" });
    expect(await ask(loc, `${chain}/Gone/f.txt`)).toEqual({ state: "missing" });
    expect(await ask(loc, `${chain.replace("d150", "D150")}/f.txt`)).toEqual({ state: "variant", spelled: `${chain}/f.txt`, how: "case" });
    expect(await ask(loc, `${chain}/f.TXT`)).toMatchObject({ state: "variant", how: "case" });
    // Every directory resolved is found again by its hash, not by resolving it from the root.
    const keys = [...loc.plain.keys()].filter((key) => key !== "");
    expect(keys.length).toBeGreaterThanOrEqual(300);
    expect(keys.filter((key) => !loc.heldHashes.has(levelsOf(key).hashes.at(-1) as number))).toEqual([]);
  });
});
