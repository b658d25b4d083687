import { createHash } from "node:crypto";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { allObjects, gitSays, type History, lsTree, makeHistory } from "../../test/support/git-history.js";
import { locateRepository } from "./git-repo.js";
import { resolveRev } from "./git-resolve.js";
import { SUPPORTED_REFS } from "./git-rev.js";
import { gitTree } from "./git.js";
import { git, scratchDir } from "../../test/support/test-fixtures.js";

const rootOf = async (dir: string, ref: string) =>
  [...(await gitTree({ fs: nodeFs, dir, ref }).list(""))._unsafeUnwrap()].sort((a, b) => (a.name < b.name ? -1 : 1));

/** Asserts gitTree reads, at `ref`, the root tree system git names for it. */
async function agreesWithGit(dir: string, ref: string): Promise<void> {
  const commit = gitSays(dir, ref);
  expect(commit, `git rev-parse ${ref}`).toBeDefined();
  expect(await rootOf(dir, ref), ref).toEqual(lsTree(dir, commit ?? ""));
}

/** The fault gitTree gives for `ref`, after checking system git names no commit either. */
async function refusal(dir: string, ref: string) {
  expect(gitSays(dir, ref), `git rev-parse ${ref}`).toBeUndefined();
  const fault = (await gitTree({ fs: nodeFs, dir, ref }).list(""))._unsafeUnwrapErr();
  expect(fault).toMatchObject({ code: "tree-not-found", path: "" });
  expect(fault.message).toContain(JSON.stringify(ref));
  return fault.message;
}

/** Two blob texts whose ids share their first 4 hex digits (found by hashing, as git does). */
function collidingTexts(): { prefix: string; texts: [string, string] } {
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const text = `blob ${i}\n`;
    const id = createHash("sha1").update(`blob ${text.length}\0${text}`).digest("hex");
    const earlier = seen.get(id.slice(0, 4));
    if (earlier !== undefined) return { prefix: id.slice(0, 4), texts: [earlier, text] };
    seen.set(id.slice(0, 4), text);
  }
}

// One history for the tests that only read it; a test that changes its repository makes its own.
let shared: History;
beforeAll(async () => {
  shared = makeHistory(await tempDir("decay-rev-"));
});

describe("gitTree ref syntax, checked against system git", () => {
  test("names, abbreviated ids and chained ~ and ^ suffixes read the commit git rev-parse names", async () => {
    const h = shared;
    const tagObject = git(h.dir, "rev-parse", "v1");
    const refs = [
      "HEAD",
      "HEAD~",
      "HEAD~1",
      "HEAD^",
      "HEAD^1",
      "HEAD~2",
      "HEAD~3",
      "HEAD^0",
      "HEAD~0",
      "HEAD~1^2",
      "HEAD~1^1",
      "HEAD~1^2~1",
      "HEAD~1^2^",
      "main~1^2~1",
      "HEAD^^2",
      "side",
      "side~",
      "refs/heads/side^",
      "v1",
      "v1^0",
      "v1~1",
      "v1n",
      "v1n^0",
      "refs/tags/v1^",
      "lw^2",
      "lw~01",
      h.c2.slice(0, 4),
      `${h.c2.slice(0, 7)}^`,
      `${h.c3.slice(0, 12)}~1`,
      h.c2.slice(0, 9).toUpperCase(),
      h.c4,
      `${h.c4.toUpperCase()}~2`,
      `${h.merge.slice(0, 39)}^2`,
      tagObject.slice(0, 8),
      `${tagObject}~1`,
    ];
    for (const ref of refs) await agreesWithGit(h.dir, ref);
  });

  test("the commits named are the ones the history was built with", async () => {
    const h = shared;
    const layout = (await locateRepository(nodeFs, h.dir))._unsafeUnwrap();
    const at = async (ref: string) => (await resolveRev(nodeFs, layout, ref))._unsafeUnwrap();
    expect(await at("HEAD~1^2")).toBe(h.c3);
    expect(await at("HEAD~1^2~1")).toBe(h.c1);
    expect(await at("HEAD^~1")).toBe(h.c2);
    expect(await at("v1n")).toBe(h.c2);
    expect(await at(`${h.c3.slice(0, 6)}^`)).toBe(h.c1);
  });

  test("walking past a root, or a parent the commit lacks, is tree-not-found naming the ref", async () => {
    const h = shared;
    expect(await refusal(h.dir, "HEAD~4")).toContain(`past the root commit ${h.c1}`);
    expect(await refusal(h.dir, `${h.c1}^`)).toContain(`parent 1 of commit ${h.c1}, which has 0 parent(s)`);
    expect(await refusal(h.dir, "HEAD~1^3")).toContain(`parent 3 of commit ${h.merge}, which has 2 parent(s)`);
    expect(await refusal(h.dir, "HEAD^2")).toContain("which has 1 parent(s)");
    expect(await refusal(h.dir, "side~2")).toContain("past the root commit");
  });

  test("unknown names and ids are not found; a tree or a blob is not a commit", async () => {
    const h = shared;
    expect(await refusal(h.dir, "nosuch")).toContain("was not found in");
    expect(await refusal(h.dir, "nosuch~1")).toContain("was not found in");
    const known = allObjects(h.dir);
    const absent = ["0000", "1111", "2222", "3333"].find((p) => !known.some((id) => id.startsWith(p))) ?? "";
    expect(await refusal(h.dir, absent)).toContain("was not found in");
    expect(await refusal(h.dir, `${absent}00000000000000000000000000000000000^`)).toContain("was not found in");
    expect(await refusal(h.dir, "treetag")).toContain("names a tree, not a commit");
    expect(await refusal(h.dir, git(h.dir, "rev-parse", "HEAD^{tree}"))).toContain("names a tree, not a commit");
    expect(await refusal(h.dir, git(h.dir, "rev-parse", "HEAD:a.txt").slice(0, 10))).toContain("names a blob");
  });

  test("an abbreviated id several objects share is ambiguous, and says how many match", async () => {
    const h = makeHistory(await scratchDir("decay-rev-"));
    const { prefix, texts } = collidingTexts();
    texts.forEach((text, i) => nodeFs.writeFileSync(join(h.dir, `blob${i}`), text));
    git(h.dir, "hash-object", "-w", "blob0", "blob1");
    const matching = allObjects(h.dir).filter((id) => id.startsWith(prefix)).length;
    expect(matching).toBeGreaterThanOrEqual(2);
    const message = await refusal(h.dir, prefix);
    expect(message).toContain(`is ambiguous: ${matching} objects match`);
  });

  test("syntax outside the supported set is refused, saying what is supported", async () => {
    const h = shared;
    for (const ref of ["HEAD@{1}", ":/add", "main..side", "HEAD^{commit}", "HEAD^!", "main:a.txt", "@", "", "HEAD~x"]) {
      const fault = (await gitTree({ fs: nodeFs, dir: h.dir, ref }).list(""))._unsafeUnwrapErr();
      expect(fault.code, ref).toBe("tree-not-found");
      expect(fault.message, ref).toContain(`git ref ${JSON.stringify(ref)} is not syntax gitTree reads`);
      expect(fault.message, ref).toContain(SUPPORTED_REFS);
    }
  });

  test("after gc, refs and abbreviated ids resolve from packs", async () => {
    const h = makeHistory(await scratchDir("decay-rev-"));
    git(h.dir, "gc", "-q");
    expect(nodeFs.existsSync(join(h.dir, ".git", "packed-refs"))).toBe(true);
    for (const ref of ["HEAD~1^2", "v1~1", h.c2.slice(0, 5), `${h.merge.slice(0, 8)}^2`]) await agreesWithGit(h.dir, ref);
  });

  test("in a linked worktree HEAD is the worktree's; suffixes walk the shared history", async () => {
    const h = makeHistory(await scratchDir("decay-rev-"));
    const wt = join(h.dir, "..", `${h.dir.split("/").pop() ?? "x"}-wt`);
    git(h.dir, "worktree", "add", "-q", "-b", "wt", wt, "side");
    try {
      expect(nodeFs.readFileSync(join(wt, ".git"), "utf8")).toMatch(/^gitdir: /);
      for (const ref of ["HEAD", "HEAD~1", "HEAD^0", "main~1^2", "v1^", h.c3.slice(0, 7)]) await agreesWithGit(wt, ref);
      expect(await rootOf(wt, "HEAD")).toEqual(lsTree(h.dir, h.c3));
    } finally {
      nodeFs.rmSync(wt, { recursive: true, force: true });
    }
  });
});
