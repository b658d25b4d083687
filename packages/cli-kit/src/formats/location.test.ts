import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { repoRelative } from "./location.js";

test("a file is named from the repository holding it, wherever the CLI runs", async () => {
  const root = await tempDir();
  mkdirSync(join(root, "repo", ".git"), { recursive: true });
  mkdirSync(join(root, "repo", "plans", "sub"), { recursive: true });
  expect(repoRelative(join(root, "repo"), "plans/a.tsv")).toBe("plans/a.tsv");
  expect(repoRelative(join(root, "repo", "plans", "sub"), "../a.tsv")).toBe("plans/a.tsv");
  expect(repoRelative("/elsewhere", join(root, "repo", "plans", "./a.tsv"))).toBe("plans/a.tsv");
});

test("a linked worktree's .git file counts; outside any repository the path is from the working directory", async () => {
  const root = await tempDir();
  mkdirSync(join(root, "wt", "x"), { recursive: true });
  writeFileSync(join(root, "wt", ".git"), "gitdir: /somewhere\n");
  expect(repoRelative(join(root, "wt", "x"), "p.tsv")).toBe("x/p.tsv");
  mkdirSync(join(root, "plain", "d"), { recursive: true });
  // The temp directory is in no repository, so the path is the one from the working directory.
  expect(repoRelative(join(root, "plain"), "d/p.tsv")).toBe("d/p.tsv");
});
