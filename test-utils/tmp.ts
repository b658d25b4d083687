import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

// Every directory made through tempDir in this test file; removed once the file's tests end.
// The hook is registered when this module is first imported, at file scope, so it runs whether
// tempDir was called from a test, a beforeAll or a helper (a hook registered inside a running
// test would never run for that test).
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * A fresh real temp directory, removed after the current test file.
 * Shared by every package's tests; never built, never published.
 */
export async function tempDir(prefix = "decay-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
