import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { posixBasename, posixDirname, posixJoin, posixNormalize, posixRelative, posixResolve } from "./posix.js";

// Paths built from the pieces that make path arithmetic interesting.
const segment = fc.constantFrom("a", "b", "é", ".", "..", "", "x y", ".git");
const path = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 })).map(([abs, parts]) => `${abs ? "/" : ""}${parts.join("/")}`);
const absolute = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join("/")}`);

describe("POSIX path helpers agree with node:path/posix", () => {
  test("normalize and join", () => {
    fc.assert(
      fc.property(path, (p) => {
        expect(posixNormalize(p)).toBe(p === "" ? "." : posix.normalize(p).replace(/(.)\/$/, "$1"));
      }),
    );
    fc.assert(
      fc.property(fc.array(path, { maxLength: 4 }), (ps) => {
        expect(posixJoin(...ps)).toBe(posix.join(...ps).replace(/(.)\/$/, "$1"));
      }),
    );
  });

  test("resolve and relative from absolute paths", () => {
    fc.assert(
      fc.property(absolute, fc.array(path, { maxLength: 3 }), (a, rest) => {
        expect(posixResolve(a, ...rest)).toBe(posix.resolve(a, ...rest));
      }),
    );
    fc.assert(
      fc.property(absolute, absolute, (a, b) => {
        expect(posixRelative(a, b)).toBe(posix.relative(a, b));
      }),
    );
  });

  test("basename and dirname", () => {
    fc.assert(
      fc.property(path, (p) => {
        expect(posixBasename(p)).toBe(posix.basename(p));
      }),
    );
    fc.assert(
      fc.property(path.map(posixNormalize), (p) => {
        expect(posixDirname(p)).toBe(posix.dirname(p));
      }),
    );
  });

  test("a path with no absolute segment is taken from the root", () => {
    expect(posixResolve("a", "../b")).toBe("/b");
  });
});
