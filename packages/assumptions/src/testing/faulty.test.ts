import { memfs } from "memfs";
import { describe, expect, test } from "vitest";
import { faultyTree } from "./faulty.js";
import { memfsTree } from "../adapters/memfs.js";

function inner() {
  const { fs } = memfs({ "/t/src/a.ts": "a", "/t/locked/b.ts": "b" });
  return memfsTree(fs, "/t", { describe: "fixture" });
}

describe("faultyTree", () => {
  test("fails exactly the calls the injector names and passes the rest through", async () => {
    const calls: string[] = [];
    const tree = faultyTree(inner(), (op, path) => {
      calls.push(`${op} ${path}`);
      return op === "list" && path === "locked" ? { code: "tree-io", path, message: 'cannot read "locked": EACCES' } : undefined;
    });
    expect((await tree.list("locked"))._unsafeUnwrapErr()).toEqual({
      code: "tree-io",
      path: "locked",
      message: 'cannot read "locked": EACCES',
    });
    expect((await tree.list("src"))._unsafeUnwrap()).toEqual([{ name: "a.ts", type: "file" }]);
    expect(new TextDecoder().decode((await tree.read("locked/b.ts", 10))._unsafeUnwrap())).toBe("b");
    expect(calls).toEqual(["list locked", "list src", "read locked/b.ts"]);
  });

  test("injects into read and readLink too, and keeps the inner description", async () => {
    const tree = faultyTree(inner(), (op, path) => (op === "list" ? undefined : { code: "tree-too-large", path, message: `${op} refused` }));
    expect(tree.describe).toBe("fixture");
    expect((await tree.read("src/a.ts", 10))._unsafeUnwrapErr().message).toBe("read refused");
    expect((await tree.readLink("src/a.ts"))._unsafeUnwrapErr().message).toBe("readLink refused");
  });
});
