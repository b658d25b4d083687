// An acceptance regex that backtracks catastrophically is stopped at the matcher's bound and is a
// fault naming the row, the pattern and the bound: never a red or green stage, and never a hang.
import { beforeAll, describe, expect, it } from "vitest";
import { nodePatterns } from "../src/entries/node.js";
import { type ExecFault, runPlan, scriptTable, verifyContract } from "../src/index.js";
import { decay } from "./cli-process.js";
import { contractOf, makeRepo, nodeOptions, planOf } from "./harness.js";

const EVIL = "^(a|a)*$";
const ROW = `\`printf ${"a".repeat(40)}b\` exits 0 and matches /${EVIL}/`;
const FAULT = { code: "pattern-timeout", row: "S1.1", pattern: EVIL, timeoutMs: 200 } satisfies ExecFault;

let repo: string;
beforeAll(async () => {
  repo = await makeRepo({ "src/a.txt": "a\n" });
});

describe("a backtracking acceptance regex", () => {
  it("is the fault pattern-timeout in verifyContract and runPlan, not a verdict", { timeout: 120_000 }, async () => {
    const contract = await contractOf(repo, planOf([["evil", [ROW]]]));
    const options = nodeOptions(repo, scriptTable({}), { patterns: nodePatterns({ timeoutMs: 200 }) });
    expect((await verifyContract(contract, options))._unsafeUnwrapErr()).toEqual(FAULT);
    expect((await runPlan(contract, options))._unsafeUnwrapErr()).toEqual(FAULT);
  });

  it("makes decay preflight exit 2 with one line naming the row, the pattern and the bound", { timeout: 120_000 }, async () => {
    const dir = await makeRepo({});
    await contractOf(dir, planOf([["evil", [ROW]]]), "evil");
    const r = await decay(["preflight", "docs/evil.plan.md"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `decay: docs/evil.plan.md: acceptance row S1.1: matching /${EVIL}/ against the command's output took longer than 10000 ms and was stopped, so the row has no verdict; simplify the pattern (it backtracks)\n`,
    );
  });

  it("stops the match at the bound --pattern-timeout-ms gives, and names that bound", { timeout: 120_000 }, async () => {
    const dir = await makeRepo({});
    await contractOf(dir, planOf([["evil", [ROW]]]), "evil");
    const started = Date.now();
    const r = await decay(["verify", "docs/evil.plan.md", "--pattern-timeout-ms", "300"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `decay: docs/evil.plan.md: acceptance row S1.1: matching /${EVIL}/ against the command's output took longer than 300 ms and was stopped, so the row has no verdict; simplify the pattern (it backtracks)\n`,
    );
    // Well under the default bound of 10 s (the clean room and the command take the rest).
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
