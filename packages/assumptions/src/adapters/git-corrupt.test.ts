// Random corruption of a real pack (and its index), and objects whose content is changed but
// validly deflated (so only the SHA-1 check can tell): every answer gitTree gives is either a
// TreeError or exactly what git answered before, never other bytes, another listing, or a throw.
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { gitTree } from "./git.js";
import { nodeSha1Hex } from "../node/hashes.js";
import { nodeInflate } from "../node/inflate.js";
import { objectsIn, repackByHand } from "../../test/support/pack-fixture.js";
import { commitSpec, git } from "../../test/support/test-fixtures.js";

const FILES = ["a.txt", "src/b.ts", "src/deep/c.md"];
const REFS = ["HEAD", "HEAD~1", "HEAD~3"];

/** Asserts every answer that is not a fault is the one given before. */
function sameOrFault(got: readonly string[], before: readonly string[]): void {
  got.forEach((a, i) => {
    if (a !== "fault") expect(a, `answer ${i}`).toBe(before[i]);
  });
}

/**
 * Every answer a reader gives for the refs and files above: a listing, bytes, or "fault". Asked
 * portably and with node:crypto and node:zlib (as plan-decay --ref reads): the two must agree.
 */
async function answers(dir: string): Promise<string[]> {
  const portable = await answersOf(dir, {});
  expect(await answersOf(dir, { sha1Hex: nodeSha1Hex, inflate: nodeInflate })).toEqual(portable);
  return portable;
}

async function answersOf(dir: string, natives: Pick<Parameters<typeof gitTree>[0], "sha1Hex" | "inflate">): Promise<string[]> {
  const out: string[] = [];
  for (const ref of REFS) {
    const tree = gitTree({ fs: nodeFs, dir, ref, ...natives });
    for (const path of ["", "src"]) {
      const listed = await tree.list(path);
      out.push(listed.isOk() ? JSON.stringify(listed.value) : "fault");
    }
    for (const f of FILES) {
      const read = await tree.read(f, 1 << 20);
      out.push(read.isOk() ? Buffer.from(read.value).toString("base64") : "fault");
    }
  }
  return out;
}

let dir: string;
let pristine: { pack: string; idx: string; packBytes: Buffer; idxBytes: Buffer; answers: string[] };

beforeAll(async () => {
  dir = join(await tempDir("decay-corrupt-"), "r");
  const body = (f: string, v: number) => Array.from({ length: 60 }, (_, i) => `${f} ${i} ${i % 7 === v % 7 ? `v${v}` : ""}\n`).join("");
  commitSpec(dir, { files: Object.fromEntries(FILES.map((f) => [f, body(f, 0)])), links: {} });
  for (let v = 1; v < 5; v++) {
    for (const f of FILES) nodeFs.writeFileSync(join(dir, f), body(f, v));
    git(dir, "commit", "-qam", `v${v}`);
  }
  git(dir, "tag", "-a", "-m", "t", "t1");
  git(dir, "repack", "-adfq", "--depth=10", "--window=10");
  git(dir, "prune-packed");
  const packDir = join(dir, ".git", "objects", "pack");
  const name = nodeFs.readdirSync(packDir).find((f) => f.endsWith(".pack")) ?? "";
  const pack = join(packDir, name);
  const idx = pack.replace(/\.pack$/, ".idx");
  for (const f of [pack, idx]) nodeFs.chmodSync(f, 0o644);
  pristine = { pack, idx, packBytes: nodeFs.readFileSync(pack), idxBytes: nodeFs.readFileSync(idx), answers: await answers(dir) };
  expect(pristine.answers).not.toContain("fault");
});

describe("a corrupted pack gives git's answers or faults, never others", () => {
  test("random bytes of the pack or its index overwritten", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
        async (inIndex, edits) => {
          const bytes = Buffer.from(inIndex ? pristine.idxBytes : pristine.packBytes);
          for (const [at, value] of edits) bytes[Math.floor(at * bytes.length)] = value;
          nodeFs.writeFileSync(inIndex ? pristine.idx : pristine.pack, bytes);
          try {
            sameOrFault(await answers(dir), pristine.answers);
          } finally {
            nodeFs.writeFileSync(pristine.pack, pristine.packBytes);
            nodeFs.writeFileSync(pristine.idx, pristine.idxBytes);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("an object whose content is changed, validly deflated, is a fault, never read as changed", () => {
  test("one byte of one object's content (commit, tag, tree or blob) rewritten in a hand-written pack", async () => {
    const copy = join(await tempDir("decay-forged-"), "r");
    nodeFs.cpSync(dir, copy, { recursive: true });
    const objects = objectsIn(copy);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(objects.length - 1),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.integer({ min: 0, max: 255 }),
        async (which, at, value) => {
          const target = objects[which];
          if (target === undefined || target.content.length === 0) return;
          const forged = Buffer.from(target.content);
          forged[Math.floor(at * forged.length)] = value;
          repackByHand(copy, { [target.oid]: () => ({ size: forged.length, data: deflateSync(forged) }) }, objects);
          sameOrFault(await answers(copy), pristine.answers);
        },
      ),
      { numRuns: 150 },
    );
  });
});
