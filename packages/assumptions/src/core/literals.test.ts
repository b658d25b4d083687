import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DENSE_CELLS, hashWindows, literalsIn, TRIE_UNITS } from "./literals.js";

// Every way a pass can go: a trie read through the table of every transition, or through the
// hash of its edges (no table); and the long literals' windows found by a rolling hash instead of
// a trie (from none on).
const bothWays = (text: string, literals: readonly string[], trieUnits = TRIE_UNITS) => [
  ...[DENSE_CELLS, 0].map((cells) => literalsIn(text, literals, trieUnits, cells)),
  literalsIn(text, literals, trieUnits, DENSE_CELLS, 0),
];

describe("literalsIn: which literals a text holds, in one pass", () => {
  test("the same answers as includes, on texts and literals over a small alphabet (many overlaps)", () => {
    const small = fc.string({ unit: fc.constantFrom("a", "b", "ab", "\u00e9", "\ud83d\ude00"), maxLength: 40 });
    fc.assert(
      fc.property(
        small,
        fc.array(
          small.map((s) => s.slice(0, 6)),
          { maxLength: 12 },
        ),
        (text, literals) => {
          const expected = literals.map((l) => text.includes(l));
          for (const found of bothWays(text, literals)) expect(found).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("the same answers as includes on any strings, pieces of the text among the literals", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(fc.string({ maxLength: 5 })),
        (text, cuts, others) => {
          const pieces = cuts.map((c, k) => text.slice(c % (text.length + 1), (c % (text.length + 1)) + 1 + (k % 7)));
          const literals = [...pieces, ...others];
          const expected = literals.map((l) => text.includes(l));
          for (const found of bothWays(text, literals)) expect(found).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("with a trie too small for them all, the longest literals are looked for one by one, with the same answers", () => {
    const small = fc.string({ unit: fc.constantFrom("a", "b", "ab", "\u00e9"), maxLength: 60 });
    fc.assert(
      fc.property(
        small,
        fc.array(
          small.map((s) => s.slice(0, 9)),
          { maxLength: 14 },
        ),
        fc.nat({ max: 40 }),
        (text, literals, budget) => {
          const expected = literals.map((l) => text.includes(l));
          for (const found of bothWays(text, literals, budget)) expect(found).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("long literals, found by their first 32 units and compared whole, answer as includes; also when the comparisons run out", () => {
    const ab = fc.string({ unit: fc.constantFrom("a", "b"), minLength: 33, maxLength: 70 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 400 }),
          fc.nat({ max: 400 }).map((n) => "a".repeat(n)),
        ),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 33, max: 70 })), { maxLength: 10 }),
        fc.array(
          fc.oneof(
            ab,
            ab.map((s) => `${"a".repeat(40)}${s}`),
          ),
          { maxLength: 10 },
        ),
        fc.constantFrom(0, 40, 100, 200, 1 << 20),
        (text, cuts, others, budget) => {
          const pieces = cuts.map(([at, length]) => text.slice(at % (text.length + 1), (at % (text.length + 1)) + length));
          const literals = [...pieces, ...others, "ab"];
          const expected = literals.map((l) => text.includes(l));
          for (const found of bothWays(text, literals, budget)) expect(found).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("when a text full of a long literal's first units uses up the comparisons, a literal further on is still found", () => {
    const text = `${"a".repeat(3000)}b${"xyz".repeat(20)}`;
    const absent = Array.from({ length: 50 }, (_, k) => `${"a".repeat(300)}c${k}`);
    const present = `${"a".repeat(300)}b${"xyz".repeat(5)}`;
    expect(literalsIn(text, [...absent, present])).toEqual([...absent.map(() => false), true]);
  });

  test("windows found by a rolling hash answer as includes on long texts, pieces of them and near misses among the literals", () => {
    // Texts long enough for many windows (fast-check's default sizes keep strings short).
    const abc = fc.string({ unit: fc.constantFrom("a", "b", "c", "\u0436", "\ud83d\ude00"), minLength: 40, maxLength: 3000, size: "max" });
    fc.assert(
      fc.property(
        abc,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 33, max: 120 }), fc.boolean()), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(40, 300, TRIE_UNITS),
        (text, cuts, trieUnits) => {
          const literals = cuts.map(([at, length, miss]) => {
            const piece = text.slice(at % text.length, (at % text.length) + length);
            // A near miss: the same piece with its last unit changed.
            return miss ? `${piece.slice(0, -1)}q` : piece;
          });
          const expected = literals.map((l) => text.includes(l));
          expect(literalsIn(text, literals, trieUnits, DENSE_CELLS, 0)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("thousands of long literals on one text take the rolling hash with its default bound, with the answers of includes", () => {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    const words = Array.from({ length: 400 }, () => Array.from({ length: 3 + (next() % 6) }, () => String.fromCharCode(97 + (next() % 26))).join(""));
    const text = Array.from({ length: 40_000 }, () => words[next() % words.length]).join(" ");
    // Longer than a trie holds whole (256 units), and more than HASHED_FROM of them.
    const literals = Array.from({ length: 3000 }, (_, k) => {
      const at = next() % (text.length - 500);
      const piece = text.slice(at, at + 257 + (next() % 200));
      return k % 2 === 0 ? piece : `${piece} zz`;
    });
    const found = literalsIn(text, literals);
    expect(found).toEqual(literals.map((l) => text.includes(l)));
    expect(found.filter(Boolean).length).toBeGreaterThanOrEqual(1500);
  });

  test("a literal found by its hashed window is taken off its list: found again later, it does not stand for one not yet found", () => {
    const a = "the first literal, which the text holds twice over";
    const b = "the second literal, which comes only after the second copy";
    const text = `${a} and ${a} and then ${b}.`;
    // A trie of 40 units holds none of them whole: each goes in by its window.
    expect(literalsIn(text, [a, b], 40, DENSE_CELLS, 0)).toEqual([true, true]);
    expect(literalsIn(text, [a, `${a}!`, b], 40, DENSE_CELLS, 0)).toEqual([true, false, true]);
  });

  test("when hashed windows all agree (a text of one letter), the comparisons run out and the answers are still those of includes", () => {
    const text = `${"a".repeat(3000)}b${"xyz".repeat(20)}`;
    const absent = Array.from({ length: 50 }, (_, k) => `${"a".repeat(300)}c${k}`);
    const present = `${"a".repeat(300)}b${"xyz".repeat(5)}`;
    expect(literalsIn(text, [...absent, present], TRIE_UNITS, DENSE_CELLS, 0)).toEqual([...absent.map(() => false), true]);
  });

  test("windows whose hashes share one run of the table's slots spend the probes' budget: the pass stops instead of walking the run at every place", () => {
    // The slot each hash starts at for a pinned seed (0): MurmurHash3's finaliser, as `home` in literals.ts.
    const WINDOW = 32;
    const hashOf = (s: string) => {
      let h = 0;
      for (let k = 0; k < WINDOW; k += 1) h = (Math.imul(h, 0x01000193) + s.charCodeAt(k)) | 0;
      return h;
    };
    const slotOf = (hash: number, mask: number) => {
      let x = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
      x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
      return (x ^ (x >>> 16)) & mask;
    };
    // `count` literals of 258 units whose windows hash apart but all start their probe at `target`.
    const crowdAt = (count: number, mask: number, target: number) => {
      const found: string[] = [];
      const hashes = new Set<number>();
      for (let c = 0x100; found.length < count; c += 1) {
        const window = `${"b".repeat(WINDOW - 2)}${String.fromCharCode(c >> 8, 0x100 + (c & 0xff))}`;
        const hash = hashOf(window);
        if (slotOf(hash, mask) === target && !hashes.has(hash)) {
          hashes.add(hash);
          found.push(`${window}${"!".repeat(226)}`);
        }
      }
      return found;
    };
    // 200 of them where `a` x 32 starts (a table of 512 slots), then `a` x 300 at the end of that
    // run: a text of `a`s probes the whole run at every place.
    const mask = 511;
    const crowd = crowdAt(200, mask, slotOf(hashOf("a".repeat(WINDOW)), mask));
    const literals = [...crowd, "a".repeat(300)];
    const text = "a".repeat(20_000);
    const long = literals.map((_, i) => i);
    const crowded = new Array<boolean>(literals.length).fill(false);
    // The run is walked at each place, and about 800 places in the probes' budget (16 slots for
    // each unit of the text and each literal) is spent: the pass stops, `a` x 300 found by then
    // and every other literal handed back to be looked for whole. A pass that ran to the end would
    // hand back none.
    expect(hashWindows(text, literals, long, crowded, 0)).toEqual(crowd.map((_, i) => i));
    expect(crowded[crowd.length]).toBe(true);
    // Spread by another seed (or without the crowd), one pass answers them all.
    const spread = new Array<boolean>(literals.length).fill(false);
    const seed = 0x5bd1e995;
    expect(new Set(crowd.map((l) => slotOf(hashOf(l) ^ seed, mask))).size).toBeGreaterThan(100);
    expect(hashWindows(text, literals, long, spread, seed)).toEqual([]);
    expect(spread).toEqual(literals.map((l) => text.includes(l)));
    expect(literalsIn(text, literals, TRIE_UNITS, DENSE_CELLS, 0)).toEqual(literals.map((l) => text.includes(l)));
    // Filling the table alone can spend it: 100 in one run (a table of 256 slots) probe about
    // 5,000 slots, more than 16 for each of them. On an empty text a full pass would hand back
    // none; this one hands back all of them before reading the text.
    const filled = crowdAt(100, 255, 5);
    expect(
      hashWindows(
        "",
        filled,
        filled.map((_, i) => i),
        new Array<boolean>(100).fill(false),
        0,
      ),
    ).toEqual(filled.map((_, i) => i));
  });

  test("literals that are suffixes of each other (a, aa, aaa, ...) are each reported once, not once per place they end", () => {
    const literals = Array.from({ length: 3000 }, (_, k) => "a".repeat(k + 1));
    const found = literalsIn("a".repeat(2000), [...literals, "b"]);
    expect(found.slice(0, 2000).every(Boolean)).toBe(true);
    expect(found.slice(2000).some(Boolean)).toBe(false);
  });

  test("jumping between the places literals may begin gives the answers of includes, whether those places are rare, dense or dense then rare", () => {
    const unit = fc.constantFrom("x", "y", "z", "q", "a", "b", "\u0436", "\ud83d", "\ude00", "\n");
    const rare = fc.string({ unit: fc.constantFrom("x", "y", "z", "\n"), maxLength: 400 });
    fc.assert(
      fc.property(
        fc.tuple(fc.string({ unit, maxLength: 300 }), rare, fc.string({ unit, maxLength: 50 }), rare).map((parts) => parts.join("")),
        fc.array(fc.string({ unit, minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        (text, others, cuts) => {
          const pieces = cuts.map((c) => text.slice(c % (text.length + 1), (c % (text.length + 1)) + 3));
          const literals = [...others, ...pieces];
          for (const found of bothWays(text, literals)) expect(found).toEqual(literals.map((l) => text.includes(l)));
          // Long literals (over 256 units: windows of 32 compared whole) jump the same way.
          const long = literals.map((l) => l.padEnd(300, "x"));
          for (const found of bothWays(text, long)) expect(found).toEqual(long.map((l) => text.includes(l)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  test("a literal is found wherever it stands in a run of dense beginnings, also where the pass stops jumping and steps", () => {
    for (let n = 0; n < 300; n += 1) expect(literalsIn(`${"ac".repeat(n)}ab${"ac".repeat(5)}`, ["ab", "zz"]), `after ${n} pairs`).toEqual([true, false]);
  });

  test("a literal at the very end of a long text with rare beginnings is found; one cut short by the end is not", () => {
    const text = `${"x".repeat(100_000)}ab`;
    expect(literalsIn(text, ["ab", "abc", "b", "c"])).toEqual([true, false, true, false]);
    // A long literal (its first 32 units in the trie, compared whole where they end) likewise.
    const long = `a${"b".repeat(299)}`;
    expect(literalsIn(long, [long, `c${"b".repeat(299)}`])).toEqual([true, false]);
    expect(literalsIn(`${"x".repeat(5000)}${long}`, [long, `${long}b`])).toEqual([true, false]);
  });

  test("after a run of dense beginnings the pass steps for a while, then jumps again: a literal anywhere around the change is found", () => {
    const dense = "ac".repeat(200);
    for (let gap = 16_000; gap < 17_400; gap += 7) {
      const text = `${dense}${"x".repeat(gap)}ab${"x".repeat(50)}`;
      expect(literalsIn(text, ["ab", "zz"]), `after ${gap} units`).toEqual([true, false]);
    }
    // Dense, rare, dense again, rare again: found at the end.
    const text = `${dense}${"x".repeat(20_000)}${dense}${"x".repeat(20_000)}ab`;
    expect(literalsIn(text, ["ab", "zz"])).toEqual([true, false]);
  });

  test("a table of transitions is used up to its bound and not past it, with the same answers", () => {
    // 26 literals of 4 letters: at most 105 nodes, 27 columns.
    const literals = Array.from({ length: 26 }, (_, k) => `${String.fromCharCode(97 + k)}bcd`);
    const text = "xxabcdxxzbcdqq";
    const expected = literals.map((l) => text.includes(l));
    for (const cells of [0, 1, 104 * 27, 105 * 27, 200 * 27, DENSE_CELLS])
      expect(literalsIn(text, literals, TRIE_UNITS, cells), `${cells} cells`).toEqual(expected);
    // Units far apart (a CJK and an astral literal) share the table with ASCII ones.
    const wide = ["\u4e2d\u6587", "\ud83d\ude00!", "ab"];
    for (const found of bothWays("x\u4e2d\u6587 \ud83d\ude00! a", wide)) expect(found).toEqual([true, true, false]);
  });

  test("a literal inside another, duplicates and the empty literal", () => {
    expect(literalsIn("ushers", ["he", "she", "his", "hers", "she", ""])).toEqual([true, true, false, true, true, true]);
    expect(literalsIn("", ["", "a"])).toEqual([true, false]);
  });
});
