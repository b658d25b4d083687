// examples/browser-gate in headless Chromium: the Vite build of the page (its own vite.config.ts,
// decay resolved through the workspace packages, so it needs `pnpm run build` first), served from
// 127.0.0.1 on a free port; the verdicts are read from the page's DOM.
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../../test-utils/tmp.js";
import { REPO } from "../embedding/bundle.js";
import { errorCollectingPage, launchChromium } from "./chromium.js";
import { serveStatic, type StaticServer } from "./static-server.js";

const EXAMPLE = `${REPO}examples/browser-gate`;

/** One tree's section as the page shows it. */
interface Shown {
  readonly tree: string | undefined;
  readonly verdict: string | undefined;
  readonly rows: readonly { readonly line: string | undefined; readonly status: string | undefined; readonly cells: readonly string[] }[];
}

/** The slice of a DOM element the page is read through (the root program has no DOM types). */
interface PageElement {
  readonly dataset: Readonly<Record<string, string | undefined>>;
  readonly textContent: string | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

describe("examples/browser-gate in headless Chromium", () => {
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  const errors: string[] = [];
  let gate: string | null = null;
  let shown: Shown[] = [];

  beforeAll(async () => {
    if (!existsSync(`${REPO}packages/assumptions/dist/index.js`)) throw new Error("packages are not built: run `pnpm run build` first");
    const outDir = await tempDir("decay-browser-gate-");
    await build({ root: EXAMPLE, configFile: `${EXAMPLE}/vite.config.ts`, logLevel: "error", build: { outDir, emptyOutDir: true } });
    server = await serveStatic(outDir);
    browser = await launchChromium();
    const page = await errorCollectingPage(browser, errors);
    await page.goto(server.url);
    // The page marks the end of its run; when it never does, say what the page reported.
    await page.waitForSelector("body[data-gate]", { state: "attached" }).catch((e: unknown) => {
      throw new Error(`the page never finished: ${String(e)}\n${errors.join("\n")}`);
    });
    gate = await page.getAttribute("body", "data-gate");
    shown = await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: PageElement }).document;
      const data = (e: PageElement | null, key: string): string | undefined => e?.dataset[key];
      return Array.from(doc.querySelectorAll("section[data-tree]"), (s) => ({
        tree: data(s, "tree"),
        verdict: data(s.querySelector("output.verdict"), "verdict"),
        rows: Array.from(s.querySelectorAll("tbody tr"), (r) => ({
          line: data(r, "line"),
          status: data(r, "status"),
          cells: Array.from(r.querySelectorAll("td"), (td) => td.textContent ?? ""),
        })),
      }));
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test("the page ran the gate without a fault or a page error", () => {
    expect(errors).toEqual([]);
    expect(gate).toBe("done");
  });

  test("the commit holds: every row of the plan shows hold", () => {
    const commit = shown.find((s) => s.tree === "commit");
    expect(commit?.verdict).toBe("holds");
    expect(commit?.rows.map((r) => [r.line, r.status])).toEqual([
      ["2", "hold"],
      ["3", "hold"],
      ["4", "hold"],
      ["5", "hold"],
    ]);
  });

  test("the working tree after the agent's edit diverges, on the two rows the edit broke", () => {
    const worktree = shown.find((s) => s.tree === "worktree");
    expect(worktree?.verdict).toBe("diverged");
    expect(worktree?.rows.map((r) => [r.line, r.status])).toEqual([
      ["2", "hold"],
      ["3", "hold"],
      ["4", "diverge"],
      ["5", "diverge"],
    ]);
    expect(worktree?.rows.map((r) => r.cells.slice(1, 4))).toEqual([
      ["exists", "src/payments.ts", "hold"],
      ["contains", "src/payments.ts", "hold"],
      ["lacks", "src/payments.ts", "diverge"],
      ["absent", "src/refunds.ts", "diverge"],
    ]);
  });
});
