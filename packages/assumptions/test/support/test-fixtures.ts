import * as nodeFs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { type TreeSpec, writeSpec } from "../../src/testing/tree-contract.js";

/** Runs system git in `dir` (no system or global config, a fixed identity) and returns its trimmed standard output. */
export { git } from "../../../../test-utils/hostile.js";
import { git } from "../../../../test-utils/hostile.js";

/** Makes a repository on branch `main` at `dir` whose one commit holds `spec`. */
export function commitSpec(dir: string, spec: TreeSpec): void {
  nodeFs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "core.precomposeunicode", "false");
  writeSpec(nodeFs, dir, spec);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "spec");
}

/** Removes every working-tree entry but `.git`, so a reader can only be reading objects. */
export function emptyWorkingTree(dir: string): void {
  for (const name of nodeFs.readdirSync(dir)) {
    if (name !== ".git") nodeFs.rmSync(`${dir}/${name}`, { recursive: true, force: true });
  }
}

/** A fresh real temp dir, removed when the current test finishes (call it inside a test). */
export async function scratchDir(prefix = "decay-tree-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
