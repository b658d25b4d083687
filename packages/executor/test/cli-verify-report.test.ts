// `decay verify` writes REPORT.md into the run's workspace, which sits in the working tree agents
// write to: a link left there is refused (exit 2), never written through to a file elsewhere.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { decay, solvedRepo } from "./cli-process.js";
import { git } from "./harness.js";

describe("decay verify and the workspace's REPORT.md", () => {
  it("a link at REPORT.md is refused with exit 2 and the file it points to is left as it was", async () => {
    const repo = await solvedRepo();
    writeFileSync(join(repo, ".gitignore"), ".plan-runs/\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "ignore the workspace");
    const outside = join(await tempDir(), "precious.txt");
    writeFileSync(outside, "precious\n");
    mkdirSync(join(repo, ".plan-runs/stats"), { recursive: true });
    symlinkSync(outside, join(repo, ".plan-runs/stats/REPORT.md"));
    const r = await decay(["verify", "docs/stats.plan.md"], repo);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(".plan-runs/stats/REPORT.md is a symbolic link; the run writes only inside its workspace");
    expect(readFileSync(outside, "utf8")).toBe("precious\n");
  });

  it("with no link there it writes REPORT.md and names it", async () => {
    const repo = await solvedRepo();
    const r = await decay(["verify", "docs/stats.plan.md"], repo);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`report: ${join(repo, ".plan-runs/stats/REPORT.md")}\n`);
    expect(readFileSync(join(repo, ".plan-runs/stats/REPORT.md"), "utf8")).toContain("docs/stats.plan.md");
  });
});
