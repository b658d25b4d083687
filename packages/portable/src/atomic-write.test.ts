import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { describe, expect, test } from "vitest";
import { type AtomicFs, type AtomicFsError, atomicWrite } from "./atomic-write.js";

type Failure = AtomicFsError & { readonly op: string };

/** A directory in a Map, with a call log and chosen calls failing. */
function memoryDir(fail: (op: string, path: string) => string | undefined = () => undefined) {
  const files = new Map<string, Uint8Array>();
  const calls: string[] = [];
  const run = <T>(op: string, path: string, body: () => T | string): ResultAsync<T, Failure> => {
    calls.push(`${op} ${path}`);
    const errno =
      fail(op, path) ??
      (() => {
        const out = body();
        return typeof out === "string" ? out : undefined;
      })();
    return errno === undefined ? okAsync(undefined as T) : errAsync({ errno, op });
  };
  const fs: AtomicFs<Failure> = {
    writeNew: (path, data) => run("writeNew", path, () => (files.has(path) ? "EEXIST" : void files.set(path, data))),
    rename: (from, to) => run("rename", to, () => (files.has(from) ? void (files.set(to, files.get(from) as Uint8Array), files.delete(from)) : "ENOENT")),
    unlink: (path) => run("unlink", path, () => (files.delete(path) ? undefined : "ENOENT")),
    fsyncDir: (path) => run("fsyncDir", path, () => undefined),
    link: (from, to) => run("link", to, () => (files.has(to) ? "EEXIST" : void files.set(to, files.get(from) as Uint8Array))),
    readFile: (path, maxBytes) => {
      calls.push(`readFile ${path} ${maxBytes}`);
      const data = files.get(path);
      return data === undefined ? errAsync({ errno: "ENOENT", op: "readFile" }) : okAsync(data.subarray(0, maxBytes));
    },
  };
  return { fs, files, calls };
}

const bytes = (s: string) => new TextEncoder().encode(s);
let n = 0;
const temp = { mode: 0o600, name: () => `.t${(n += 1)}` };

describe("atomicWrite", () => {
  test("replaces the target through a fsynced temp file and leaves no temp file", async () => {
    const d = memoryDir();
    d.files.set("/d/out", bytes("old"));
    expect((await atomicWrite(d.fs, "/d", "/d/out", bytes("new"), temp)).isOk()).toBe(true);
    expect([...d.files.keys()]).toEqual(["/d/out"]);
    expect(new TextDecoder().decode(d.files.get("/d/out"))).toBe("new");
    expect(d.calls.at(-1)).toBe("fsyncDir /d");
  });

  test("a failed rename keeps the old target and removes the temp file", async () => {
    const d = memoryDir((op) => (op === "rename" ? "EIO" : undefined));
    d.files.set("/d/out", bytes("old"));
    const r = await atomicWrite(d.fs, "/d", "/d/out", bytes("new"), temp);
    expect(r._unsafeUnwrapErr()).toEqual({ errno: "EIO", op: "rename" });
    expect([...d.files.keys()]).toEqual(["/d/out"]);
  });

  test("a clashing temp name is retried with another", async () => {
    const d = memoryDir();
    n = 0;
    d.files.set("/d/.t1", bytes("someone else's"));
    expect((await atomicWrite(d.fs, "/d", "/d/out", bytes("x"), temp)).isOk()).toBe(true);
    expect(new TextDecoder().decode(d.files.get("/d/.t1"))).toBe("someone else's");
  });

  test("an immutable target accepts the same bytes and refuses others, leaving no temp file", async () => {
    const d = memoryDir();
    d.files.set("/d/snap", bytes("same"));
    expect((await atomicWrite(d.fs, "/d", "/d/snap", bytes("same"), { ...temp, immutable: true })).isOk()).toBe(true);
    const changed = await atomicWrite(d.fs, "/d", "/d/snap", bytes("other"), { ...temp, immutable: true });
    expect(changed._unsafeUnwrapErr()).toEqual({ code: "immutable-changed", path: "/d/snap" });
    expect([...d.files.keys()]).toEqual(["/d/snap"]);
  });

  test("an immutable target is compared by reading one byte more than the data, never the whole file", async () => {
    const d = memoryDir();
    d.files.set("/d/snap", bytes(`same${"x".repeat(100_000)}`));
    const changed = await atomicWrite(d.fs, "/d", "/d/snap", bytes("same"), { ...temp, immutable: true });
    expect(changed._unsafeUnwrapErr()).toEqual({ code: "immutable-changed", path: "/d/snap" });
    expect(d.calls.filter((c) => c.startsWith("readFile"))).toEqual(["readFile /d/snap 5"]);
  });
});
