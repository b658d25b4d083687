import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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

test("a file reached through a linked directory is named where it really lies; a link of its own is named where the link is", async () => {
  const root = await tempDir();
  mkdirSync(join(root, "repo", ".git"), { recursive: true });
  mkdirSync(join(root, "repo", "plans"), { recursive: true });
  writeFileSync(join(root, "repo", "plans", "a.tsv"), "exists\tx\n");
  symlinkSync(join(root, "repo", "plans"), join(root, "lp"));
  symlinkSync(join(root, "repo", "plans", "a.tsv"), join(root, "la.tsv"));
  expect(repoRelative(root, "lp/a.tsv")).toBe("plans/a.tsv");
  // The link itself is the file the repository holding it has: repo/docs/la.tsv -> ../plans/a.tsv.
  mkdirSync(join(root, "repo", "docs"));
  symlinkSync(join(root, "repo", "plans", "a.tsv"), join(root, "repo", "docs", "la.tsv"));
  expect(repoRelative(root, "repo/docs/la.tsv")).toBe("docs/la.tsv");
  expect(repoRelative(root, "la.tsv")).toBe("la.tsv");
  // Not there (yet): its directory's links are still followed.
  expect(repoRelative(root, "lp/new.tsv")).toBe("plans/new.tsv");
  // A link to a file in no repository keeps the path it was given.
  mkdirSync(join(root, "plain"), { recursive: true });
  writeFileSync(join(root, "plain", "p.tsv"), "");
  symlinkSync(join(root, "plain"), join(root, "repo", "outside"));
  expect(repoRelative(join(root, "repo"), "outside/p.tsv")).toBe("outside/p.tsv");
});
