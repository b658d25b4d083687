import { posix, win32 } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isWithin } from "./within.js";

// Segments that make containment interesting: prefixes of each other, dots, a backslash in a name.
const posixParts = fc.array(fc.constantFrom("a", "ab", "b", ".a", "a\\b", "x y"), { maxLength: 4 });
const winParts = fc.array(fc.constantFrom("a", "ab", "b", ".a", "A"), { maxLength: 4 });

/** A path and a base, the path often the base with more segments joined on. */
const pairOf = (parts: fc.Arbitrary<string[]>, root: string, sep: string) =>
  fc.tuple(parts, parts, fc.boolean()).map(([base, more, below]) => [root + (below ? [...base, ...more] : more).join(sep), root + base.join(sep)] as const);

/** What node:path says: the relative path from `base` to `path` does not climb out of `base`. */
const model = (path: typeof posix, p: string, b: string) => !/^\.\.(?:[/\\]|$)/.test(path.relative(b, p));

describe("isWithin", () => {
  // Equal or below counts; a sibling sharing a prefix does not; trailing separators do not count.
  // A backslash is part of a POSIX name; in a Windows path it separates, and case does not count.
  test.each([
    ["/a/bc", "/a/b", false],
    ["/a/b/c", "/a/b/", true],
    ["/a\\b", "/a", false],
    ["C:/r/x", "C:\\r\\", true],
    ["c:\\Repo\\x", "C:\\repo", true],
  ])("%s in %s: %s", (path, base, within) => {
    expect(isWithin(path, base)).toBe(within);
  });

  test.each([
    ["POSIX", posix, pairOf(posixParts, "/", "/")],
    ["Windows", win32, pairOf(winParts, "C:\\", "\\")],
  ] as const)("agrees with node:path on %s paths", (_, path, pairs) => {
    fc.assert(
      fc.property(pairs, ([p, b]) => isWithin(p, b) === model(path, p, b)),
      { numRuns: 1000 },
    );
  });
});
