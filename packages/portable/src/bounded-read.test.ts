import { mkdtempSync, openSync, readSync, rmSync, writeFileSync, closeSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { isReadLimit, readOpenFile, readUpTo } from "./bounded-read.js";

const dir = mkdtempSync(join(tmpdir(), "decay-bounded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "f");
writeFileSync(file, "SECRET_TOKEN=1\n");

function readSyncUpTo(limit: number): Uint8Array {
  const fd = openSync(file, "r");
  try {
    return readUpTo((buffer, offset, length, position) => readSync(fd, buffer, offset, length, position), 15, limit);
  } finally {
    closeSync(fd);
  }
}

// Before, a limit of NaN gave a buffer of no bytes and the read ended at once: an empty file.
describe("the bounded read refuses a limit that is no bound", () => {
  test("property: a limit is a positive integer or Infinity, else a RangeError before any byte", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.double(), fc.integer({ min: -5, max: 40 }), fc.constant(Number.POSITIVE_INFINITY)), async (limit) => {
        const bound = Number.isInteger(limit) ? limit >= 1 : limit === Number.POSITIVE_INFINITY;
        expect(isReadLimit(limit)).toBe(bound);
        if (!bound) {
          expect(() => readSyncUpTo(limit)).toThrow(RangeError);
          await expect(readOpenFile(await open(file), (s) => Number(s.size), limit)).rejects.toThrow(RangeError);
          return;
        }
        const want = Math.min(15, limit);
        expect(readSyncUpTo(limit).length).toBe(want);
        expect((await readOpenFile(await open(file), (s) => Number(s.size), limit)).length).toBe(want);
      }),
      { numRuns: 100 },
    );
  });
});
