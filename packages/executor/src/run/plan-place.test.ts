// Where a contract's plan lies in the repository, over a memfs volume with links.
import type { Contract } from "@decay/contract";
import { memfs } from "memfs";
import { describe, expect, it } from "vitest";
import type { WorkspaceFs } from "../ports.js";
import { planPath } from "./plan-place.js";

/** A volume holding the repository /r (its plan at docs/x.plan.md), a link /link -> /r and a link loop. */
function volume(): WorkspaceFs {
  const { fs } = memfs({ "/r/docs/x.plan.md": "# plan\n", "/r/a.txt": "a\n", "/elsewhere/y.plan.md": "# other\n" });
  fs.symlinkSync("/r", "/link");
  fs.symlinkSync("/r/docs/x.plan.md", "/elsewhere/into.plan.md");
  fs.symlinkSync("/r/docs", "/r/docs-link");
  fs.symlinkSync("/loop2", "/loop1");
  fs.symlinkSync("/loop1", "/loop2");
  return fs as unknown as WorkspaceFs;
}

const place = (plan: string, repo = "/r", fs = volume()) => planPath({ contract: { plan } as Contract, repo, fs });

describe("planPath places the plan as the repository's own file, or says it lies outside", () => {
  it("a relative path, or an absolute one under the repository's spelling, by its spelling", async () => {
    expect((await place("docs/x.plan.md"))._unsafeUnwrap()).toBe("docs/x.plan.md");
    expect((await place("./docs/../docs/x.plan.md"))._unsafeUnwrap()).toBe("docs/x.plan.md");
    expect((await place("/r/docs/x.plan.md"))._unsafeUnwrap()).toBe("docs/x.plan.md");
    expect((await place("../elsewhere/y.plan.md"))._unsafeUnwrap()).toBeNull();
  });

  it("an absolute path through a link to the repository, or the repository named through one, where it really lies", async () => {
    expect((await place("/link/docs/x.plan.md"))._unsafeUnwrap()).toBe("docs/x.plan.md");
    expect((await place("/r/docs/x.plan.md", "/link"))._unsafeUnwrap()).toBe("docs/x.plan.md");
  });

  it("a plan outside that is a link to a file of the repository is that file; one inside keeps its own name", async () => {
    expect((await place("/elsewhere/into.plan.md"))._unsafeUnwrap()).toBe("docs/x.plan.md");
    expect((await place("/link/docs-link/x.plan.md"))._unsafeUnwrap()).toBe("docs/x.plan.md");
    expect((await place("/r/docs-link/x.plan.md"))._unsafeUnwrap()).toBe("docs-link/x.plan.md");
  });

  it("outside the repository, or in a directory that is not there (a contract made elsewhere): null, and the run goes on unchecked", async () => {
    expect((await place("/elsewhere/y.plan.md"))._unsafeUnwrap()).toBeNull();
    expect((await place("/gone/docs/x.plan.md"))._unsafeUnwrap()).toBeNull();
    expect((await place("/link/gone/x.plan.md"))._unsafeUnwrap()).toBeNull();
    expect((await place("/link/a.txt/sub/x.plan.md"))._unsafeUnwrap()).toBeNull();
  });

  it("an fs without realpath leaves a path through a link unplaced; one that cannot tell is a workspace-io fault naming the path", async () => {
    const fs = volume();
    const { realpath: _, ...promises } = fs.promises;
    const bare: WorkspaceFs = { ...fs, promises };
    expect((await place("/link/docs/x.plan.md", "/r", bare))._unsafeUnwrap()).toBeNull();
    expect((await place("/loop1/x.plan.md"))._unsafeUnwrapErr()).toMatchObject({
      code: "workspace-io",
      path: "/loop1",
      reason: expect.stringMatching(/ELOOP/),
    });
    expect((await place("/link/docs/x.plan.md", "/gone"))._unsafeUnwrapErr()).toMatchObject({ code: "workspace-io", path: "/gone" });
  });
});
