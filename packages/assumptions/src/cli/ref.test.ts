import * as nodeFs from "node:fs";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, test } from "vitest";
import { commitSpec, git, scratchDir } from "../../test/support/test-fixtures.js";
import { gitTree } from "../adapters/git.js";
import type { TreeError } from "../tree.js";
import { JsonFault } from "./json.js";
import { main } from "./main.js";
import { memoryIo } from "../../test/support/memory-io.js";

async function run(argv: string[]) {
  const m = memoryIo();
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

/** A repository whose HEAD~1 holds plan.md only and whose HEAD adds refunds.ts; a plan beside it. */
async function repoAndPlan(): Promise<{ repo: string; plan: string }> {
  const base = await scratchDir("decay-ref-cli-");
  const repo = join(base, "repo");
  commitSpec(repo, { files: { "plan.md": "p\n" }, links: {} });
  writeFileSync(join(repo, "refunds.ts"), "export {};\n");
  git(repo, "add", "refunds.ts");
  git(repo, "commit", "-q", "-m", "refunds");
  const plan = join(base, "plan.tsv");
  writeFileSync(plan, "# written against the first commit\n\nexists\tplan.md\nabsent\trefunds.ts\n");
  return { repo, plan };
}

describe("plan-decay --ref: a bad ref or a root with no repository is a fault of the run, not of a row", () => {
  test("--json prints {fault} with code tree-not-found and no line; stderr says the same", async () => {
    const { repo, plan } = await repoAndPlan();
    const r = await run(["--root", repo, "--ref", "nosuchref", "--json", plan]);
    expect(r.code).toBe(2);
    const parsed = JsonFault.parse(JSON.parse(r.stdout));
    expect(Object.keys(parsed.fault).sort()).toEqual(["code", "message"]);
    expect(parsed.fault.code).toBe("tree-not-found");
    expect(parsed.fault.message).toContain('git ref "nosuchref" was not found');
    expect(r.stderr).toBe(`error: ${parsed.fault.message}\n`);
    expect(r.stderr).not.toMatch(/line \d/);
  });

  test("the ref is refused before the plan is read: a missing plan file is not what is reported", async () => {
    const { repo, plan } = await repoAndPlan();
    const r = await run(["--root", repo, "--ref", "HEAD~9", `${plan}.missing`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: git ref "HEAD~9" walks past the root commit [0-9a-f]{40}/);
    expect(r.stdout).toBe("");
  });

  test("a root that holds no repository is tree-not-found naming it, with no line", async () => {
    const { plan } = await repoAndPlan();
    const empty = await scratchDir("decay-ref-empty-");
    const r = await run(["--root", empty, "--ref", "HEAD", "--json", plan]);
    expect(r.code).toBe(2);
    const { fault } = JsonFault.parse(JSON.parse(r.stdout));
    expect(fault).toEqual({ code: "tree-not-found", message: expect.stringContaining(`${empty} is not a git repository`) });
  });

  test("a root that is no repository, or a subdirectory of one, says so and that --root must be the top level", async () => {
    const { repo, plan } = await repoAndPlan();
    const sub = join(repo, "src");
    mkdirSync(sub);
    const empty = await scratchDir("decay-ref-empty-");
    for (const root of [sub, empty]) {
      const r = await run(["--root", root, "--ref", "HEAD", plan]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: ${root} is not a git repository: with --ref, --root must be a repository's top level (the directory holding .git) or a bare repository\n`,
      );
      expect(r.stderr).not.toContain("does not exist");
    }
  });

  test("the library names the directory it was given: gitTree's dir is not a repository", async () => {
    const { repo } = await repoAndPlan();
    const sub = join(repo, "src");
    mkdirSync(sub);
    const listed = await gitTree({ fs: nodeFs, dir: sub, ref: "HEAD" }).list("");
    expect(listed._unsafeUnwrapErr()).toEqual({
      code: "tree-not-found",
      path: "",
      message: `${sub} is not a git repository: it holds no .git and is not a bare repository (give the repository's top level)`,
      reason: "not-a-repository",
    });
  });

  test("reason not-a-repository marks only a dir with no repository: a bad ref or a broken .git is another fault", async () => {
    expectTypeOf<TreeError["reason"]>().toEqualTypeOf<"not-a-repository" | undefined>();
    const { repo, plan } = await repoAndPlan();
    const empty = await scratchDir("decay-ref-empty-");
    const broken = await scratchDir("decay-ref-broken-");
    writeFileSync(join(broken, ".git"), "not a gitdir line\n");
    const bare = `${repo}.git`;
    git(repo, "clone", "-q", "--bare", repo, bare);
    const reasons: [TreeError["code"], TreeError["reason"]][] = [];
    for (const [dir, ref] of [
      [empty, "HEAD"],
      [repo, "nosuchref"],
      [bare, "nosuchref"],
      [broken, "HEAD"],
    ] as const) {
      const listed = await gitTree({ fs: nodeFs, dir, ref }).list("");
      const e = listed._unsafeUnwrapErr();
      reasons.push([e.code, e.reason]);
    }
    expect(reasons).toEqual([
      ["tree-not-found", "not-a-repository"],
      ["tree-not-found", undefined],
      ["tree-not-found", undefined],
      ["tree-io", undefined],
    ]);
    const r = await run(["--root", broken, "--ref", "HEAD", plan]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(`error: cannot read the tree root: ${broken}/.git is a file without a "gitdir:" line\n`);
  });

  test("unsupported syntax is refused the same way, saying what --ref accepts", async () => {
    const { repo, plan } = await repoAndPlan();
    const r = await run(["--root", repo, "--ref", "HEAD@{1}", "--json", plan]);
    expect(r.code).toBe(2);
    const { fault } = JsonFault.parse(JSON.parse(r.stdout));
    expect(fault.line).toBeUndefined();
    expect(fault.message).toContain("~N, ~, ^ and ^N");
  });

  test("a good ref with suffixes still reaches a verdict: HEAD~1 holds, HEAD diverges", async () => {
    const { repo, plan } = await repoAndPlan();
    expect((await run(["--root", repo, "--ref", "HEAD~1", plan])).code).toBe(0);
    const head = await run(["--root", repo, "--ref", "HEAD", plan]);
    expect(head.code).toBe(1);
    expect(head.stdout).toContain("DIVERGE line 4: absent refunds.ts");
    const digest = await run(["--root", repo, "--ref", "main^", "--digest", "plan.md"]);
    expect(digest.code).toBe(3);
  });
});
