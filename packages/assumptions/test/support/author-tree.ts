// What the `plan-decay author` tests share: a small tree in a real temp directory, the CLI run on it
// in memory, and the digest its rows hold.
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "../../../../test-utils/tmp.js";
import { main } from "../../src/cli/main.js";
import type { TreeReader } from "../../src/tree.js";
import { memoryIo } from "./memory-io.js";

/** The text of `tree/src/a.ts` in `sampleTree`. */
export const A = "export const a = 1;\n";
/** The text of `tree/src/b.ts` in `sampleTree`. */
export const B = "export const b = 2;\n";

/** A temp directory holding `tree/src/a.ts` (`A`) and `tree/src/b.ts` (`B`), removed after the file's tests. */
export async function sampleTree(): Promise<string> {
  const dir = await tempDir("plan-decay-author-");
  await mkdir(join(dir, "tree", "src"), { recursive: true });
  await writeFile(join(dir, "tree", "src", "a.ts"), A);
  await writeFile(join(dir, "tree", "src", "b.ts"), B);
  return dir;
}

/** `plan-decay` run with `argv` from `cwd` (trees read by `openTree` when given): its exit code and what it printed. */
export async function run(cwd: string, argv: string[], openTree?: (root: string) => TreeReader) {
  const m = memoryIo(openTree === undefined ? { cwd } : { cwd, openTree });
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

/** SHA-256 (lowercase hex) of `text` as UTF-8: the digest an `unchanged` row holds for an ASCII file. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
