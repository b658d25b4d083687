import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { slug } from "../record/slug.js";
import type { StoreFault } from "./fault.js";
import { nodeStoreFs } from "../node/store-fs.js";
import type { PendingStore } from "./store.js";
import { nodePendingStore, type NodePendingStoreOptions } from "../node/store.js";
import { checkout, gitIn, pendingEnvelope, sampleRecord, type Checkout } from "../../test/support/testkit.js";

const open = async (opts: NodePendingStoreOptions): Promise<PendingStore> => (await nodePendingStore({ env: {}, ...opts }))._unsafeUnwrap();
const refusal = async (opts: NodePendingStoreOptions): Promise<StoreFault> => (await nodePendingStore({ env: {}, ...opts }))._unsafeUnwrapErr();
const mode = (path: string): number => statSync(path).mode & 0o777;
const newRoot = (c: Checkout): string => join(c.home, ".decay", "evidence", slug(c.repo));

/** Saves one envelope and its snapshot, as prepare would. */
async function fill(store: PendingStore): Promise<string> {
  const record = sampleRecord();
  (await store.snapshot(record))._unsafeUnwrap();
  (await store.save(pendingEnvelope(store, record)))._unsafeUnwrap();
  return store.pathFor(record);
}

function makeLegacy(c: Checkout, ignored = true): string {
  const legacy = join(c.repo, ".delivery-evidence");
  mkdirSync(legacy, { mode: 0o700 });
  if (ignored) writeFileSync(join(c.repo, ".git/info/exclude"), "\n/.delivery-evidence/\n", { flag: "a" });
  writeFileSync(join(legacy, "pending.json"), "{}");
  return legacy;
}

describe("where the pending store lives", () => {
  test("slug follows the reference vectors; the default root is <home>/.decay/evidence/<slug>", async () => {
    expect(slug("/")).toBe("root-8a5edab28263");
    expect(slug(`/srv/${"щ".repeat(100)}`).split("-")[0]).toBe("щ".repeat(32));
    const c = await checkout();
    const store = await open({ repo: c.repo, home: c.home });
    expect(store.root).toBe(newRoot(c));
    const agentflow = await open({ repo: c.repo, home: c.home, layout: "agentflow" });
    expect(agentflow.root).toBe(join(c.home, ".sentimony", "agentflow", "implement", slug(c.repo)));
  });

  test("a fresh run uses a private folder and leaves the project untouched", async () => {
    const c = await checkout();
    const exclude = readFileSync(join(c.repo, ".git/info/exclude"));
    const store = await open({ repo: c.repo, home: c.home });
    expect(store.legacy).toBe(false);
    expect(store.unusedLegacy).toBeNull();
    for (const part of [".decay", ".decay/evidence", `.decay/evidence/${slug(c.repo)}`]) expect(mode(join(c.home, part))).toBe(0o700);
    const path = await fill(store);
    expect(mode(path)).toBe(0o600);
    expect(c.git("status", "--porcelain", "--ignored")).toBe("");
    expect(readFileSync(join(c.repo, ".git/info/exclude"))).toEqual(exclude);
  });

  test("two linked worktrees share one store", async () => {
    const c = await checkout();
    const linked = join(c.base, "linked");
    c.git("worktree", "add", "-q", linked, "-b", "other");
    expect((await open({ repo: linked, home: c.home })).root).toBe((await open({ repo: c.repo, home: c.home })).root);
    expect((await open({ repo: linked, home: c.home })).root).toBe(newRoot(c));
  });

  test("a populated legacy folder is kept until the new place has data", async () => {
    const c = await checkout();
    const legacy = makeLegacy(c);
    const store = await open({ repo: c.repo, home: c.home });
    expect(store).toMatchObject({ legacy: true, root: legacy, unusedLegacy: null });
    const path = await fill(store);
    expect(existsSync(join(c.home, ".decay"))).toBe(false);
    const again = await open({ repo: c.repo, home: c.home });
    expect(again.legacy).toBe(true);
    const loaded = (await again.load(path))._unsafeUnwrap();
    expect(loaded.record.task).toBe("Task 9");
    expect(existsSync(join(legacy, `snapshot-${loaded.record.content_sha256}.json`))).toBe(true);
  });

  test("the new place wins when both have data and the legacy folder is named unused", async () => {
    const c = await checkout();
    await fill(await open({ repo: c.repo, home: c.home }));
    const legacy = makeLegacy(c);
    const chosen = await open({ repo: c.repo, home: c.home });
    expect(chosen).toMatchObject({ legacy: false, root: newRoot(c), unusedLegacy: legacy });
    expect(readFileSync(join(legacy, "pending.json"), "utf8")).toBe("{}");
  });

  test("a snapshot alone does not hide a legacy envelope", async () => {
    const c = await checkout();
    const store = await open({ repo: c.repo, home: c.home });
    await fill(store);
    for (const name of readdirSync(store.root)) if (!name.startsWith("snapshot-")) rmSync(join(store.root, name));
    makeLegacy(c);
    expect(await open({ repo: c.repo, home: c.home })).toMatchObject({ legacy: true, unusedLegacy: null });
  });

  test("a legacy folder must be ignored by git, hold nothing tracked, and be a real directory", async () => {
    const c = await checkout();
    const legacy = makeLegacy(c, false);
    expect(await refusal({ repo: c.repo, home: c.home })).toMatchObject({ code: "legacy-not-ignored" });
    c.git("add", ".delivery-evidence/pending.json");
    writeFileSync(join(c.repo, ".git/info/exclude"), "\n/.delivery-evidence\n", { flag: "a" });
    expect(await refusal({ repo: c.repo, home: c.home })).toMatchObject({ code: "legacy-tracked", path: legacy });
    c.git("rm", "-q", "--cached", ".delivery-evidence/pending.json");
    rmSync(legacy, { recursive: true });
    const elsewhere = join(c.base, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "pending.json"), "{}");
    symlinkSync(elsewhere, legacy);
    expect(await refusal({ repo: c.repo, home: c.home })).toEqual({ code: "symlink-in-store-path", path: legacy });
    expect(readdirSync(elsewhere)).toEqual(["pending.json"]);
    expect(existsSync(join(c.home, ".decay"))).toBe(false);
  });

  test("a symlink on any store component is refused and nothing is written through it", async () => {
    const c = await checkout();
    const names = [".decay", "evidence", slug(c.repo)];
    for (let depth = 0; depth < names.length; depth++) {
      rmSync(join(c.home, ".decay"), { recursive: true, force: true });
      const outside = join(c.base, `outside-${depth}`);
      mkdirSync(outside);
      const parent = join(c.home, ...names.slice(0, depth));
      mkdirSync(parent, { recursive: true, mode: 0o700 });
      symlinkSync(outside, join(parent, names[depth] ?? ""));
      expect(await refusal({ repo: c.repo, home: c.home })).toEqual({ code: "symlink-in-store-path", path: join(parent, names[depth] ?? "") });
      expect(readdirSync(outside)).toEqual([]);
    }
  });

  test("a store that became a symlink after opening is refused before any write", async () => {
    const c = await checkout();
    const store = await open({ repo: c.repo, home: c.home });
    const outside = join(c.base, "outside");
    mkdirSync(outside);
    rmSync(store.root, { recursive: true });
    symlinkSync(outside, store.root);
    expect((await store.save(pendingEnvelope(store, sampleRecord())))._unsafeUnwrapErr()).toMatchObject({ code: "symlink-in-store-path" });
    expect((await store.snapshot(sampleRecord()))._unsafeUnwrapErr()).toMatchObject({ code: "symlink-in-store-path" });
    expect(readdirSync(outside)).toEqual([]);
  });

  test("wide folders are narrowed to 0700 and foreign owners are refused", async () => {
    const c = await checkout();
    const store = await open({ repo: c.repo, home: c.home });
    const parts = [".decay", ".decay/evidence", `.decay/evidence/${slug(c.repo)}`].map((p) => join(c.home, p));
    for (const p of parts) chmodSync(p, 0o777);
    await open({ repo: c.repo, home: c.home });
    for (const p of parts) expect(mode(p)).toBe(0o700);
    const stranger = { ...nodeStoreFs(), uid: () => 4242 };
    expect(await refusal({ repo: c.repo, home: c.home, fs: stranger })).toMatchObject({ code: "foreign-owner", path: parts[0], expected: 4242 });
    if (process.getuid?.() === 0) {
      chownSync(store.root, 4243, 4243);
      expect(await refusal({ repo: c.repo, home: c.home })).toEqual({ code: "foreign-owner", path: store.root, uid: 4243, expected: 0 });
    }
  });

  test("a store component that is not a directory is refused", async () => {
    const c = await checkout();
    mkdirSync(join(c.home, ".decay"), { mode: 0o700 });
    writeFileSync(join(c.home, ".decay", "evidence"), "");
    expect(await refusal({ repo: c.repo, home: c.home })).toEqual({ code: "not-a-directory", path: join(c.home, ".decay", "evidence") });
  });

  test("inherited GIT_* variables change neither the project key nor the legacy checks", async () => {
    const c = await checkout();
    const other = join(c.base, "other");
    mkdirSync(other);
    gitIn(other, "init", "-q");
    const env = { GIT_DIR: join(other, ".git"), GIT_COMMON_DIR: join(other, ".git"), GIT_WORK_TREE: other };
    expect((await open({ repo: c.repo, home: c.home, env })).root).toBe(newRoot(c));
    rmSync(join(c.home, ".decay"), { recursive: true });
    const legacy = makeLegacy(c);
    expect((await open({ repo: c.repo, home: c.home, env })).root).toBe(legacy);
  });

  test("a home inside the project is refused and nothing is created in it", async () => {
    const c = await checkout();
    const inside = join(c.repo, "fake-home");
    mkdirSync(inside);
    expect(await refusal({ repo: c.repo, home: inside })).toEqual({ code: "home-inside-project", home: inside, project: c.repo });
    expect(await refusal({ repo: c.repo, home: c.repo })).toMatchObject({ code: "home-inside-project" });
    expect(readdirSync(inside)).toEqual([]);
  });

  test("an unusable home is refused without creating anything", async () => {
    const c = await checkout();
    const missing = join(c.home, "missing");
    expect(await refusal({ repo: c.repo, home: missing })).toEqual({ code: "home-unusable", home: missing, reason: "missing" });
    expect(await refusal({ repo: c.repo })).toEqual({ code: "home-unusable", home: null, reason: "unset" });
    expect(await refusal({ repo: c.repo, env: { HOME: "relative/home" } })).toMatchObject({ reason: "relative" });
    writeFileSync(join(c.base, "file"), "");
    expect(await refusal({ repo: c.repo, home: join(c.base, "file") })).toMatchObject({ reason: "not-a-directory" });
    expect((await open({ repo: c.repo, env: { HOME: c.home } })).root).toBe(newRoot(c));
    rmSync(join(c.home, ".decay"), { recursive: true });
    expect(readdirSync(c.home)).toEqual([]);
  });

  test("the repository must be a checkout's top level", async () => {
    const c = await checkout();
    mkdirSync(join(c.repo, "sub"));
    expect(await refusal({ repo: join(c.repo, "sub"), home: c.home })).toMatchObject({ code: "not-a-repository-root" });
    expect(await refusal({ repo: join(c.base, "nowhere"), home: c.home })).toMatchObject({ code: "not-a-repository-root" });
    expect(readdirSync(c.home)).toEqual([]);
  });
});
