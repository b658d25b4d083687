import { createFsFromVolume, Volume } from "memfs";
import { describe, expect, test } from "vitest";
import { memfsStoreFs } from "../store/fs-adapter.js";
import { faultyStoreFs } from "./faulty-store-fs.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function inner() {
  const vol = Volume.fromJSON({ "/d/.keep": "" });
  return { vol, fs: memfsStoreFs(createFsFromVolume(vol)) };
}

describe("faultyStoreFs", () => {
  test("counts every operation and passes them through until told otherwise", async () => {
    const { vol, fs } = inner();
    const f = faultyStoreFs(fs, {});
    (await f.writeNew("/d/a", bytes("x"), 0o600))._unsafeUnwrap();
    (await f.rename("/d/a", "/d/b"))._unsafeUnwrap();
    (await f.lstat("/d/b"))._unsafeUnwrap();
    expect(f.uid()).toBe(fs.uid());
    expect(f.count).toBe(3);
    expect(f.crashed).toBe(false);
    expect(vol.readFileSync("/d/b", "utf8")).toBe("x");
  });

  test("from operation crashAt on, every call fails with ECRASH and has no effect", async () => {
    const { vol, fs } = inner();
    const f = faultyStoreFs(fs, { crashAt: 2 });
    (await f.mkdir("/d/one", 0o700))._unsafeUnwrap();
    expect((await f.mkdir("/d/two", 0o700))._unsafeUnwrapErr()).toMatchObject({ errno: "ECRASH", op: "mkdir", path: "/d/two" });
    expect((await f.lstat("/d/one"))._unsafeUnwrapErr().errno).toBe("ECRASH");
    expect(f.crashed).toBe(true);
    expect(vol.existsSync("/d/two")).toBe(false);
  });

  test("a crash on writeNew leaves half of the data behind, as a dying writer would", async () => {
    const { vol, fs } = inner();
    const f = faultyStoreFs(fs, { crashAt: 1 });
    expect((await f.writeNew("/d/t", bytes("abcdef"), 0o600))._unsafeUnwrapErr().errno).toBe("ECRASH");
    expect(vol.readFileSync("/d/t", "utf8")).toBe("abc");
  });

  test("fail injects one error where it says, and later operations still run", async () => {
    const { vol, fs } = inner();
    const f = faultyStoreFs(fs, {
      fail: (op, path, n) => (op === "rename" ? { code: "store-fs", errno: "EIO", op, path, message: `disk failure at ${n}` } : undefined),
    });
    (await f.writeNew("/d/a", bytes("x"), 0o600))._unsafeUnwrap();
    expect((await f.rename("/d/a", "/d/b"))._unsafeUnwrapErr()).toMatchObject({ errno: "EIO", message: "disk failure at 2" });
    (await f.unlink("/d/a"))._unsafeUnwrap();
    expect(vol.existsSync("/d/b")).toBe(false);
    expect(f.crashed).toBe(false);
  });
});
