// The gate in a page: one plan checked against a memfs volume, and against a commit of an
// isomorphic-git repository held in the same kind of volume (no checkout: the working tree has
// moved on since the commit, the commit still holds).
import { checkTree, describeFault, digestText, memfsTree, parseAssumptions, type Report, type TreeReader } from "@decay/assumptions";
import { gitTree } from "@decay/assumptions/git";
import * as git from "isomorphic-git";
import { memfs } from "memfs";

const LEDGER = "export const ledger: number[] = [];\nexport function charge(cents: number): void {\n  ledger.push(cents);\n}\n";

/** The plan's beliefs about the tree: every row holds on the tree it was written for. */
function planFor(ledger: string): string {
  const digest = digestText(new TextEncoder().encode(ledger));
  if (digest.isErr()) throw new Error(describeFault(digest.error));
  return [
    "exists\tsrc/ledger.ts",
    "absent\tsrc/refunds.ts",
    "contains\tsrc/ledger.ts\texport function charge(",
    "lacks\tsrc/ledger.ts\texport function refund(",
    `unchanged\tsrc/ledger.ts\t${digest.value}`,
    "",
  ].join("\n");
}

async function check(tree: TreeReader, plan: string): Promise<Report> {
  const rows = parseAssumptions(plan);
  if (rows.isErr()) throw new Error(describeFault(rows.error));
  const report = await checkTree({ tree, assumptions: rows.value });
  if (report.isErr()) throw new Error(describeFault(report.error));
  return report.value;
}

/** What the gate said over memfs: the tree the plan was written for, and the tree after a refund landed. */
export async function gateOverMemfs(): Promise<{ holds: Report; moved: Report }> {
  const plan = planFor(LEDGER);
  const before = memfs({ "/work/src/ledger.ts": LEDGER });
  const after = memfs({
    "/work/src/ledger.ts": `${LEDGER}export function refund(cents: number): void {\n  ledger.push(-cents);\n}\n`,
    "/work/src/refunds.ts": "export {};\n",
  });
  return { holds: await check(memfsTree(before.fs, "/work"), plan), moved: await check(memfsTree(after.fs, "/work"), plan) };
}

/** What the gate said over a commit in a repository held in memory, and over its moved working tree. */
export async function gateOverGit(): Promise<{ commit: Report; head: Report; worktree: Report; oid: string }> {
  const { fs } = memfs({ "/repo/src/ledger.ts": LEDGER });
  const dir = "/repo";
  await git.init({ fs, dir, defaultBranch: "main" });
  await git.add({ fs, dir, filepath: "src/ledger.ts" });
  const author = { name: "smoke", email: "smoke@example.invalid", timestamp: 1_700_000_000, timezoneOffset: 0 };
  const oid = await git.commit({ fs, dir, message: "ledger\n", author });
  // The working tree moves on after the commit; the commit does not.
  fs.unlinkSync("/repo/src/ledger.ts");
  fs.writeFileSync("/repo/src/refunds.ts", "export {};\n");
  const plan = planFor(LEDGER);
  return {
    commit: await check(gitTree({ fs, dir, ref: oid }), plan),
    head: await check(gitTree({ fs, dir, ref: "main" }), plan),
    worktree: await check(memfsTree(fs, dir), plan),
    oid,
  };
}
