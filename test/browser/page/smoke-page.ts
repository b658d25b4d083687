// The smoke page's entry: sets the global isomorphic-git needs, then exposes `runSmoke` for the
// test driving Chromium to call. Everything decay comes from the package roots and `./git`.
import "./buffer-global.js";
import { compileInPage, publishInPage } from "./contract-evidence.js";
import { gateOverGit, gateOverMemfs } from "./gate.js";

/** What the test hands the page: a staged plan and an evidence record, read from the fixtures. */
export interface SmokeInput {
  readonly planPath: string;
  readonly planText: string;
  readonly recordJson: string;
}

/** Runs every smoke in the page; results are plain JSON for the test to assert on. */
export async function runSmoke(input: SmokeInput) {
  return {
    memfs: await gateOverMemfs(),
    git: await gateOverGit(),
    contract: await compileInPage(input.planPath, input.planText),
    evidence: await publishInPage(input.recordJson),
    nodeGlobals: { process: typeof (globalThis as { process?: unknown }).process, require: typeof (globalThis as { require?: unknown }).require },
  };
}

/** The result of `runSmoke`. */
export type SmokeResult = Awaited<ReturnType<typeof runSmoke>>;
