import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * A fresh real temp directory, removed after the current test.
 * Shared by every package's tests; never built, never published.
 */
export async function tempDir(prefix = "decay-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  afterEach(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
