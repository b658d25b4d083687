import { describe, expect, test } from "vitest";
import type { StoreFs } from "../store/port.js";

/** What a StoreFs contract run needs: the adapter, an empty directory, and a way to make a symlink. */
export interface StoreFsHarness {
  readonly fs: StoreFs;
  /** An existing, empty, absolute directory with no symlink on its path. */
  readonly dir: string;
  symlink(target: string, path: string): Promise<void>;
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
/** A `readFile` bound no test file reaches. */
const WHOLE = 1 << 30;

/** The one StoreFs contract: every adapter runs it with its own harness. */
export function describeStoreFsContract(name: string, makeHarness: () => Promise<StoreFsHarness>): void {
  describe(`StoreFs contract: ${name}`, () => {
    test("mkdir creates one private directory owned by uid(), and says EEXIST the second time", async () => {
      const { fs, dir } = await makeHarness();
      expect((await fs.mkdir(`${dir}/a`, 0o700)).isOk()).toBe(true);
      const stat = (await fs.lstat(`${dir}/a`))._unsafeUnwrap();
      expect(stat).toMatchObject({ type: "directory", mode: 0o700, uid: fs.uid() });
      expect((await fs.mkdir(`${dir}/a`, 0o700))._unsafeUnwrapErr()).toMatchObject({ code: "store-fs", errno: "EEXIST" });
      expect((await fs.mkdir(`${dir}/x/y`, 0o700))._unsafeUnwrapErr().errno).toBe("ENOENT");
    });

    test("writeNew creates a 0600 file exclusively and readFile returns exactly its bytes", async () => {
      const { fs, dir } = await makeHarness();
      const data = bytes("ä line\n".repeat(3000));
      expect((await fs.writeNew(`${dir}/f`, data, 0o600)).isOk()).toBe(true);
      expect(Buffer.from((await fs.readFile(`${dir}/f`, WHOLE))._unsafeUnwrap()).equals(data)).toBe(true);
      expect((await fs.lstat(`${dir}/f`))._unsafeUnwrap()).toMatchObject({ type: "file", mode: 0o600, size: data.length });
      const again = await fs.writeNew(`${dir}/f`, bytes("other"), 0o600);
      expect(again._unsafeUnwrapErr().errno).toBe("EEXIST");
      expect((await fs.readFile(`${dir}/f`, WHOLE))._unsafeUnwrap()).toEqual(data);
    });

    test("readFile reads at most maxBytes bytes of a longer file, and all of a shorter one", async () => {
      const { fs, dir } = await makeHarness();
      await fs.writeNew(`${dir}/f`, bytes("0123456789"), 0o600);
      expect(text((await fs.readFile(`${dir}/f`, 4))._unsafeUnwrap())).toBe("0123");
      expect(text((await fs.readFile(`${dir}/f`, 11))._unsafeUnwrap())).toBe("0123456789");
      expect(text((await fs.readFile(`${dir}/f`, 10))._unsafeUnwrap())).toBe("0123456789");
    });

    test("a missing path is an ENOENT error value from every reading call, never a throw", async () => {
      const { fs, dir } = await makeHarness();
      const missing = `${dir}/missing`;
      for (const r of [await fs.lstat(missing), await fs.readFile(missing, WHOLE), await fs.readdir(missing), await fs.realpath(missing)]) {
        expect(r._unsafeUnwrapErr()).toMatchObject({ code: "store-fs", errno: "ENOENT", path: missing });
      }
      expect((await fs.unlink(missing))._unsafeUnwrapErr().errno).toBe("ENOENT");
    });

    test("readdir lists entry names; chmod sets permission bits", async () => {
      const { fs, dir } = await makeHarness();
      await fs.writeNew(`${dir}/one.json`, bytes("1"), 0o600);
      await fs.mkdir(`${dir}/two`, 0o700);
      expect([...(await fs.readdir(dir))._unsafeUnwrap()].sort()).toEqual(["one.json", "two"]);
      expect((await fs.chmod(`${dir}/two`, 0o755)).isOk()).toBe(true);
      expect((await fs.lstat(`${dir}/two`))._unsafeUnwrap().mode).toBe(0o755);
    });

    test("rename replaces the target whole and the source name is gone", async () => {
      const { fs, dir } = await makeHarness();
      await fs.writeNew(`${dir}/old`, bytes("old"), 0o600);
      await fs.writeNew(`${dir}/tmp`, bytes("new"), 0o600);
      expect((await fs.rename(`${dir}/tmp`, `${dir}/old`)).isOk()).toBe(true);
      expect(text((await fs.readFile(`${dir}/old`, WHOLE))._unsafeUnwrap())).toBe("new");
      expect((await fs.lstat(`${dir}/tmp`))._unsafeUnwrapErr().errno).toBe("ENOENT");
    });

    test("link makes a second name for the same bytes and refuses an existing name with EEXIST", async () => {
      const { fs, dir } = await makeHarness();
      await fs.writeNew(`${dir}/a`, bytes("same"), 0o600);
      expect((await fs.link(`${dir}/a`, `${dir}/b`)).isOk()).toBe(true);
      expect(text((await fs.readFile(`${dir}/b`, WHOLE))._unsafeUnwrap())).toBe("same");
      await fs.writeNew(`${dir}/c`, bytes("other"), 0o600);
      expect((await fs.link(`${dir}/c`, `${dir}/b`))._unsafeUnwrapErr().errno).toBe("EEXIST");
      expect(text((await fs.readFile(`${dir}/b`, WHOLE))._unsafeUnwrap())).toBe("same");
      expect((await fs.unlink(`${dir}/a`)).isOk()).toBe(true);
      expect(text((await fs.readFile(`${dir}/b`, WHOLE))._unsafeUnwrap())).toBe("same");
    });

    test("fsyncDir succeeds on a directory and fails on a missing one", async () => {
      const { fs, dir } = await makeHarness();
      expect((await fs.fsyncDir(dir)).isOk()).toBe(true);
      expect((await fs.fsyncDir(`${dir}/missing`)).isErr()).toBe(true);
    });

    test("lstat reports a symlink as a symlink; realpath resolves it", async () => {
      const { fs, dir, symlink } = await makeHarness();
      await fs.mkdir(`${dir}/real`, 0o700);
      await symlink(`${dir}/real`, `${dir}/alias`);
      expect((await fs.lstat(`${dir}/alias`))._unsafeUnwrap().type).toBe("symlink");
      expect((await fs.realpath(`${dir}/alias`))._unsafeUnwrap()).toBe(`${dir}/real`);
      expect((await fs.realpath(dir))._unsafeUnwrap()).toBe(dir);
    });
  });
}
