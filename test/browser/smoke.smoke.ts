// The browser smoke: decay's package roots (and @decay/assumptions/git) bundled for the browser and
// run in headless Chromium. In the page: the gate over memfs and over a commit of an isomorphic-git
// repository held in memory, a contract compiled from a fixture plan, an evidence record hashed,
// stored and published through an in-memory transport. Run with `pnpm test:browser`.
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO } from "../embedding/bundle.js";
import { bundlePage } from "./bundle-page.js";
import { errorCollectingPage, launchChromium } from "./chromium.js";
import type { SmokeResult } from "./page/smoke-page.js";

const PLAN = "fixtures/plans/refunds-report.plan.md";
// A reference vector (Python's own canonical JSON, hash and comment body), with non-ASCII text.
const VECTORS = `${REPO}packages/evidence/test/vectors/evidence-vectors.json`;
const VECTOR = (JSON.parse(readFileSync(VECTORS, "utf8")) as { records: Record<string, string>[] }).records[2] as Record<string, string>;

const statuses = (r: { rows: readonly { status: string }[] }): string[] => r.rows.map((row) => row.status);

describe("decay in headless Chromium", () => {
  let browser: Browser | undefined;
  let result: SmokeResult;
  const errors: string[] = [];
  let ownBuiltins: readonly string[] = [];

  beforeAll(async () => {
    const bundle = await bundlePage("test/browser/page/smoke-page.ts", "__smoke");
    ownBuiltins = bundle.ownBuiltins;
    browser = await launchChromium();
    const page = await errorCollectingPage(browser, errors);
    await page.setContent("<!doctype html><title>decay smoke</title>");
    await page.addScriptTag({ content: bundle.code });
    const input = { planPath: PLAN, planText: readFileSync(`${REPO}${PLAN}`, "utf8"), recordJson: VECTOR["canonical_json"] as string };
    result = (await page.evaluate(
      (i) => (globalThis as unknown as { __smoke: { runSmoke(x: typeof i): Promise<unknown> } }).__smoke.runSmoke(i),
      input,
    )) as SmokeResult;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  test("decay's own files import no Node builtin, the page has no Node global, nothing failed", () => {
    expect(ownBuiltins).toEqual([]);
    expect(result.nodeGlobals).toEqual({ process: "undefined", require: "undefined" });
    expect(errors).toEqual([]);
  });

  test("the gate over memfs: every row holds on the tree the plan was written for, and the moved tree diverges", () => {
    expect(result.memfs.holds.verdict).toBe("holds");
    expect(statuses(result.memfs.holds)).toEqual(["hold", "hold", "hold", "hold", "hold"]);
    expect(result.memfs.moved.verdict).toBe("diverged");
    expect(statuses(result.memfs.moved)).toEqual(["hold", "diverge", "hold", "diverge", "diverge"]);
  });

  test("the gate over a commit in an in-memory isomorphic-git repository reads the commit, not the working tree", () => {
    expect(result.git.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(result.git.commit.verdict).toBe("holds");
    expect(result.git.commit.held).toBe(5);
    expect(result.git.head.verdict).toBe("holds");
    expect(result.git.worktree.verdict).toBe("diverged");
    expect(statuses(result.git.worktree)).toEqual(["diverge", "diverge", "diverge", "diverge", "diverge"]);
  });

  test("a plan compiles in the page to the same contract as in Node, and round-trips through contract.md", () => {
    const expected: unknown = JSON.parse(readFileSync(`${REPO}fixtures/plans/refunds-report.contract.json`, "utf8"));
    expect(result.contract.contract).toEqual(expected);
    expect(result.contract.roundTrips).toBe(true);
  });

  test("an evidence record hashes as the reference does, and is published exactly once, read back, through an in-memory transport", () => {
    expect(result.evidence.contentHash).toBe(VECTOR["content_sha256"]);
    expect([result.evidence.status, result.evidence.reason]).toEqual(["published", null]);
    const url = "https://forge.test/owner/repo/pull/23#issuecomment-1";
    expect(result.evidence.comments).toEqual([{ url, body: VECTOR["body"] }]);
    expect(result.evidence.canonicalUrl).toBe(url);
  });
});
