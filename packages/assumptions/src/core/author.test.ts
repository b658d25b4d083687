import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { authorAssumptions } from "./author.js";
import { checkTree } from "./check.js";
import { countedReader } from "../../test/support/counted-reader.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";
import { parseAssumptions } from "./parse.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("authorAssumptions", () => {
  test("writes unchanged rows with current digests for reads and edits, absent rows for creates", async () => {
    const { tree } = fixtureTree({ "src/payments.py": "def charge(\r\n", "README.md": "hi\n" });
    const text = (
      await authorAssumptions({ tree, reads: ["README.md"], edits: ["./src/payments.py"], creates: ["src/refunds.py", "src/new/"] })
    )._unsafeUnwrap();
    const rows = parseAssumptions(text)._unsafeUnwrap();
    expect(rows.map((r) => ({ ...r, line: 0 }))).toEqual([
      { line: 0, kind: "unchanged", path: "README.md", sha256: sha("hi\n") },
      { line: 0, kind: "unchanged", path: "src/payments.py", sha256: sha("def charge(\n") },
      { line: 0, kind: "absent", path: "src/refunds.py", directory: false },
      { line: 0, kind: "absent", path: "src/new", directory: true },
    ]);
    expect((await checkTree({ tree, assumptions: rows }))._unsafeUnwrap().verdict).toBe("holds");
  });
  test("the authored plan diverges once a sibling edits a read file or creates a planned file", async () => {
    const { fs, tree } = fixtureTree({ "a.txt": "one" });
    const rows = parseAssumptions((await authorAssumptions({ tree, reads: ["a.txt"], creates: ["b.txt"] }))._unsafeUnwrap())._unsafeUnwrap();
    fs.writeFileSync("/t/a.txt", "two");
    fs.writeFileSync("/t/b.txt", "");
    const report = (await checkTree({ tree, assumptions: rows }))._unsafeUnwrap();
    expect(report.rows.map((r) => r.status)).toEqual(["diverge", "diverge"]);
  });
  test.each([
    ["an existing file", "src/refunds.py", "create-exists", "src/refunds.py"],
    ["a case variant", "src/REFUNDS.py", "create-variant", "src/refunds.py"],
    ["a cross-script confusable", "src/\u0430\u0441\u0435.py", "create-variant", "src/ace.py"],
  ])("a create that names %s is a fault", async (_n, create, code, spelled) => {
    const { tree } = fixtureTree({ "src/refunds.py": "", "src/ace.py": "" });
    expect((await authorAssumptions({ tree, creates: [create] }))._unsafeUnwrapErr()).toMatchObject({ code, spelled });
  });
  test("keeps at most the reader's inFlight calls waiting at once, and writes the same plan", async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`d${i % 4}/f${i}.txt`, `text ${i}\n`]));
    const { tree } = fixtureTree(files);
    const paths = Object.keys(files);
    const request = { reads: paths.slice(0, 20), edits: paths.slice(20, 30), creates: ["d0/new.txt", "d9/new/"] };
    const expected = (await authorAssumptions({ tree, ...request }))._unsafeUnwrap();
    for (const [inFlight, most] of [
      [1, 1],
      [4, 4],
      [undefined, 16],
    ] as const) {
      const { reader, seen } = countedReader(tree, inFlight);
      expect((await authorAssumptions({ tree: reader, ...request }))._unsafeUnwrap()).toBe(expected);
      expect(seen.most).toBe(most);
    }
  });
  test("of several faults, the first in input order is the one reported: reads, then edits, then creates", async () => {
    const { reader } = countedReader(fixtureTree({ "a.txt": "a", "b.txt": "b" }).tree, 16);
    const faults = await authorAssumptions({ tree: reader, reads: ["a.txt", "gone-1.txt"], edits: ["gone-2.txt"], creates: ["b.txt"] });
    expect(faults._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-found", path: "gone-1.txt" });
    const later = await authorAssumptions({ tree: reader, reads: ["a.txt"], edits: ["gone-2.txt"], creates: ["b.txt"] });
    expect(later._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-found", path: "gone-2.txt" });
  });
  test("a missing read and an empty request are faults", async () => {
    const { tree } = fixtureTree({ "a.txt": "" });
    expect((await authorAssumptions({ tree, reads: ["gone.txt"] }))._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-found" });
    expect((await authorAssumptions({ tree }))._unsafeUnwrapErr()).toMatchObject({ code: "plan-empty" });
  });
});
