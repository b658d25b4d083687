import fc from "fast-check";
import { createFsFromVolume, Volume } from "memfs";
import { describe, expect, test } from "vitest";
import { memfsStoreFs } from "./fs-adapter.js";
import { projectKey } from "./project.js";

const HEAD = "ref: refs/heads/main\n";
const keyOf = async (files: Record<string, string>, repo: string) => {
  const vol = Volume.fromJSON(files);
  return projectKey(memfsStoreFs(createFsFromVolume(vol)), repo);
};

describe("projectKey reads git's own files", () => {
  test("a main checkout is its own key", async () => {
    expect((await keyOf({ "/w/main/.git/HEAD": HEAD }, "/w/main"))._unsafeUnwrap()).toBe("/w/main");
  });

  test("a linked worktree's gitdir (relative or absolute) and commondir lead to the main checkout", async () => {
    const files = {
      "/w/main/.git/HEAD": HEAD,
      "/w/main/.git/worktrees/x/HEAD": HEAD,
      "/w/main/.git/worktrees/x/commondir": "../..\n",
      "/w/linked/.git": "gitdir: ../main/.git/worktrees/x\n",
      "/w/abs/.git": "gitdir: /w/main/.git/worktrees/x\n",
    };
    expect((await keyOf(files, "/w/linked"))._unsafeUnwrap()).toBe("/w/main");
    expect((await keyOf(files, "/w/abs"))._unsafeUnwrap()).toBe("/w/main");
  });

  test("a worktree of a bare repository is keyed by the bare repository itself", async () => {
    const files = {
      "/w/repo.git/HEAD": HEAD,
      "/w/repo.git/worktrees/x/HEAD": HEAD,
      "/w/repo.git/worktrees/x/commondir": "../..",
      "/w/t/.git": "gitdir: /w/repo.git/worktrees/x",
    };
    expect((await keyOf(files, "/w/t"))._unsafeUnwrap()).toBe("/w/repo.git");
  });

  test("no .git, a .git file without gitdir, or a gitdir without HEAD is not a checkout", async () => {
    const cases: Record<string, string>[] = [
      { "/w/r/plan.md": "" },
      { "/w/r/.git": "nonsense\n" },
      { "/w/r/.git": "gitdir: /nowhere\n" },
      { "/w/r/.git/config": "" },
    ];
    for (const files of cases) {
      expect((await keyOf(files, "/w/r"))._unsafeUnwrapErr()).toMatchObject({ code: "not-a-repository-root", repo: "/w/r" });
    }
  });

  test("any .git file content gives a key or a clear fault, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (dotGit, commondir) => {
        const r = await keyOf({ "/w/main/.git/HEAD": HEAD, "/w/main/.git/worktrees/x/commondir": commondir, "/w/r/.git": dotGit }, "/w/r");
        if (r.isErr()) expect(r.error.code).toMatch(/^(not-a-repository-root|store-fs)$/);
      }),
      { numRuns: 200 },
    );
  });
});
