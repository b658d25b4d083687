import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { compileBundle, startBundle } from "./code-cache.js";

// A bundle that reports, into a file beside it, what Node's loader would have given it. Each
// gets a source of its own: V8 keeps what this process compiled, by source and file name, and
// would answer a second compile from that instead of looking at the cache offered.
let made = 0;
function source(result: string): string {
  made += 1;
  return `#!/usr/bin/env node
"use strict";
const { writeFileSync } = require("node:fs");
const helper = require("./helper.cjs");
writeFileSync(__dirname + "/ran.json", JSON.stringify({ filename: __filename, dirname: __dirname, helper, result: ${result}, thisIsExports: this === module.exports }));
// bundle ${String(made).padStart(6, "0")}
`;
}

async function bundleAt(text: string): Promise<{ dir: string; file: string; ran: () => Record<string, unknown> }> {
  const dir = await tempDir("decay-code-cache-");
  writeFileSync(join(dir, "helper.cjs"), "module.exports = 'helped';\n");
  const file = join(dir, "bundle.cjs");
  writeFileSync(file, text);
  return { dir, file, ran: () => JSON.parse(readFileSync(join(dir, "ran.json"), "utf8")) };
}

// The same source at a second path: compiled there, its cache is one V8 has not seen for the first.
async function twin(file: string): Promise<string> {
  const dir = await tempDir("decay-code-cache-twin-");
  copyFileSync(join(file, "../helper.cjs"), join(dir, "helper.cjs"));
  copyFileSync(file, join(dir, "bundle.cjs"));
  return join(dir, "bundle.cjs");
}

describe("compileBundle: a CommonJS file run as Node's loader runs it", () => {
  test("the bundle gets its own file, directory, require and module, its #! line blanked", async () => {
    const { dir, file, ran } = await bundleAt(source("6 * 7"));
    compileBundle(file).run();
    expect(ran()).toEqual({ filename: file, dirname: dir, helper: "helped", result: 42, thisIsExports: true });
  });

  test("a cache made by a run of the same source is taken, and the run is the same", async () => {
    const { file, ran } = await bundleAt(source("6 * 7"));
    const maker = compileBundle(await twin(file));
    maker.run();
    const compiled = compileBundle(file, maker.cache());
    expect(compiled.cacheRejected).toBe(false);
    compiled.run();
    expect(ran()).toMatchObject({ filename: file, result: 42 });
  });

  test("a cache of other code of the same length is refused: the bundle runs its own code", async () => {
    const mine = await bundleAt(source("6 * 7"));
    const other = await bundleAt(source("6 + 7"));
    expect(readFileSync(other.file, "utf8").length).toBe(readFileSync(mine.file, "utf8").length);
    const maker = compileBundle(other.file);
    maker.run();
    const compiled = compileBundle(mine.file, maker.cache());
    expect(compiled.cacheRejected).toBe(true);
    compiled.run();
    expect(mine.ran()).toMatchObject({ result: 42 });
  });

  test("bytes that are no cache, or a cache whose data is spoilt, are refused and the bundle still runs", async () => {
    const good = await bundleAt(source("6 * 7"));
    const maker = compileBundle(await twin(good.file));
    maker.run();
    const sealed = maker.cache();
    // One byte changed anywhere: in the seal, in V8's header, in the middle of the code, the last.
    const spoilt = [0, 31, 40, sealed.length >> 1, sealed.length - 1].map((at) => {
      const copy = Uint8Array.from(sealed);
      copy[at] = (copy[at] ?? 0) ^ 0x5a;
      return copy;
    });
    for (const cache of [...spoilt, sealed.subarray(0, 32), new Uint8Array([1, 2, 3]), new Uint8Array(0)]) {
      const { file, ran } = await bundleAt(readFileSync(good.file, "utf8"));
      const compiled = compileBundle(file, cache);
      expect(compiled.cacheRejected).toBe(true);
      compiled.run();
      expect(ran()).toMatchObject({ result: 42, helper: "helped" });
    }
  });

  test("no cache offered is not a refusal", async () => {
    const { file } = await bundleAt(source("1"));
    expect(compileBundle(file).cacheRejected).toBe(false);
  });
});

describe("startBundle", () => {
  test("runs the bundle whether its cache file is there or not", async () => {
    const { dir, file, ran } = await bundleAt(source("6 * 7"));
    startBundle(file, join(dir, "no-such.cache"));
    expect(ran()).toMatchObject({ filename: file, result: 42 });
    writeFileSync(join(dir, "bundle.cache"), compileBundle(file).cache());
    writeFileSync(join(dir, "ran.json"), "null");
    startBundle(file, join(dir, "bundle.cache"));
    expect(ran()).toMatchObject({ filename: file, result: 42 });
  });

  test("a missing bundle throws, naming it", async () => {
    const { dir } = await bundleAt(source("1"));
    expect(() => startBundle(join(dir, "gone.cjs"), join(dir, "gone.cache"))).toThrow(/gone\.cjs/);
  });
});
