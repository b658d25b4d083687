import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { inRepository } from "./paths.js";

/** The reading spelled out part by part: `.` and empty parts dropped, `..` taking one away, null once it climbs out. */
function stepwise(dir: string, rel: string): string | null {
  if (rel.startsWith("/")) return null;
  const parts = dir === "" ? [] : dir.split("/");
  for (const p of rel.split("/")) {
    if (p === "" || p === ".") continue;
    if (p !== "..") parts.push(p);
    else if (parts.pop() === undefined) return null;
  }
  return parts.join("/");
}

describe("inRepository", () => {
  test("reads a path from a repository folder as git does, refusing one that is absolute or climbs out", () => {
    expect(inRepository("", "./src/../lib/a.ts")).toBe("lib/a.ts");
    expect(inRepository("pkg", "../b")).toBe("b");
    expect(inRepository("pkg", "../../b")).toBeNull();
    expect(inRepository("", "a/../../b/c")).toBeNull();
    expect(inRepository("", "/etc/passwd")).toBeNull();
    expect(inRepository("", ".")).toBe("");
    expect(inRepository("a/b", "..//./c/")).toBe("a/c");
  });

  test("agrees with the part-by-part reading on any path of ., .., empty and plain parts", () => {
    const part = fc.constantFrom("", ".", "..", "a", "b", "..a");
    const path = fc.array(part, { maxLength: 7 }).map((ps) => ps.join("/"));
    const dir = fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 3 }).map((ps) => ps.join("/"));
    fc.assert(
      fc.property(dir, path, (d, p) => {
        expect(inRepository(d, p)).toBe(stepwise(d, p));
      }),
      { numRuns: 2000 },
    );
  });
});
