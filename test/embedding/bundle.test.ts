// Every package root is runtime-neutral: bundled for the browser with no polyfill and no shim, it
// imports no Node builtin, reads no Node global, and loads in a context that has only web globals.
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { bundleForBrowser } from "./bundle.js";

/** Per root: names it must export, and names that belong to ./node, ./cli or ./testing instead. */
const ROOTS = {
  assumptions: {
    has: ["parseAssumptions", "checkTree", "digestPath", "digestText", "authorAssumptions", "memfsTree", "describeFault"],
    not: ["nodeTree", "faultyTree", "planDecayMain", "main", "treeContract", "gitTree"],
  },
  contract: {
    has: ["readPlan", "compileContract", "planSha256", "renderContract", "parseContract", "selfCheck", "planDrift", "runView", "importPlan"],
    not: ["main", "exitCodeFor"],
  },
  evidence: {
    has: ["canonicalJson", "validateRecord", "keyHash", "contentHash", "slug", "openPendingStore", "memfsStoreFs", "prepare", "publish", "grantPublication"],
    not: ["nodeStoreFs", "faultyStoreFs", "memoryForge", "decayEvidenceMain", "main", "githubTransport", "storeFsContract", "transportContract"],
  },
  executor: {
    has: ["runPlan", "verifyContract", "scriptedAgent", "readLedger", "deriveResume", "parseRecord"],
    not: ["main", "nodeShell", "systemGit", "gitCloneRoom", "commandAgent", "cleanRoomContract", "replayRunner", "isomorphicRoom"],
  },
} as const;

// What a browser offers and Node-only code would miss: no process, Buffer, global or require.
function webGlobals(): Record<string, unknown> {
  const { TextEncoder, TextDecoder, URL, URLSearchParams, crypto, console, queueMicrotask, setTimeout, clearTimeout, AbortController, structuredClone } =
    globalThis;
  return { TextEncoder, TextDecoder, URL, URLSearchParams, crypto, console, queueMicrotask, setTimeout, clearTimeout, AbortController, structuredClone };
}

describe.each(Object.entries(ROOTS))("@decay/%s root entry", (name, names) => {
  const bundled = bundleForBrowser(`packages/${name}/src/index.ts`);

  test("bundles for the browser with no Node builtin and no Node global", async () => {
    const b = await bundled;
    expect(b.builtins).toEqual([]);
    expect(b.globals).toEqual([]);
    expect(b.inputs.filter((i) => i.startsWith("node:"))).toEqual([]);
  });

  test("loads where only web globals exist and exposes its API, no CLI or test double", async () => {
    const context: Record<string, unknown> = webGlobals();
    context["globalThis"] = context;
    runInNewContext((await bundled).code, context);
    const api = context["__entry"] as Record<string, unknown>;
    for (const n of names.has) expect(typeof api[n], n).toBe("function");
    for (const n of names.not) expect(api[n], n).toBeUndefined();
  });
});

// The ./git subpaths run over isomorphic-git, which reads a global `Buffer` (its own documented
// requirement in a browser), so they are not held to the root's rule; our own code in them is.
describe.each(["packages/assumptions/src/entries/git.ts", "packages/executor/src/entries/git.ts"])("%s", (entry) => {
  test("imports no Node builtin and reads no Node global from decay's own files", async () => {
    const b = await bundleForBrowser(entry);
    expect(b.builtins.filter((i) => !i.includes("node_modules/"))).toEqual([]);
    expect(b.inputs.filter((i) => i.startsWith("node:"))).toEqual([]);
    expect(b.ownGlobals).toEqual([]);
  });
});

// Subpaths that promise to be runtime-neutral too: the GitHub transport (fetch) and the vitest matcher.
describe.each(["packages/evidence/src/entries/github.ts", "packages/assumptions/src/entries/vitest.ts"])("%s", (entry) => {
  test("bundles for the browser with no Node builtin and no Node global", async () => {
    const b = await bundleForBrowser(entry);
    expect(b.builtins).toEqual([]);
    expect(b.globals).toEqual([]);
  });
});
