// The gate over a repository held in memory: a memfs volume, committed to with isomorphic-git.
// The plan is checked against the commit (read from git objects, no checkout) and against the
// working tree after an agent added refunds. No DOM here: render.ts shows what this returns.
import { checkTree, describeFault, memfsTree, parseAssumptions, type Report, type TreeReader } from "@decay/assumptions";
import { gitTree } from "@decay/assumptions/git";
import * as git from "isomorphic-git";
import { memfs } from "memfs";

const DIR = "/shop";

/** The plan's assumptions file: what the plan believes about the tree. */
export const PLAN = [
  "# refunds plan: what must still be true before an agent starts",
  "exists\tsrc/payments.ts",
  "contains\tsrc/payments.ts\texport function charge(",
  "lacks\tsrc/payments.ts\texport function refund(",
  "absent\tsrc/refunds.ts",
  "",
].join("\n");

const PAYMENTS = "export function charge(cents: number): number {\n  return cents;\n}\n";

/** One tree the gate checked: its label, and the report (verdict and rows). */
export interface Checked {
  readonly tree: "commit" | "worktree";
  readonly label: string;
  readonly report: Report;
}

async function check(tree: TreeReader): Promise<Report> {
  const rows = parseAssumptions(PLAN);
  if (rows.isErr()) throw new Error(describeFault(rows.error));
  const report = await checkTree({ tree, assumptions: rows.value });
  // A fault (an unreadable tree, a malformed plan) is never a verdict.
  if (report.isErr()) throw new Error(describeFault(report.error));
  return report.value;
}

/** Builds the repository, commits, lets an "agent" edit the working tree, and runs the gate on both. */
export async function runGate(): Promise<readonly Checked[]> {
  const { fs } = memfs({ [`${DIR}/src/payments.ts`]: PAYMENTS, [`${DIR}/README.md`]: "# shop\n" });
  await git.init({ fs, dir: DIR, defaultBranch: "main" });
  await git.add({ fs, dir: DIR, filepath: "." });
  const author = { name: "planner", email: "planner@example.invalid", timestamp: 1_700_000_000, timezoneOffset: 0 };
  const oid = await git.commit({ fs, dir: DIR, message: "payments\n", author });
  // An agent starts work in the working tree: refunds land, the commit stays as it was.
  fs.writeFileSync(`${DIR}/src/payments.ts`, `${PAYMENTS}export function refund(cents: number): number {\n  return -cents;\n}\n`);
  fs.writeFileSync(`${DIR}/src/refunds.ts`, "export { refund } from './payments';\n");
  return [
    { tree: "commit", label: `commit ${oid.slice(0, 12)} (main)`, report: await check(gitTree({ fs, dir: DIR, ref: "main" })) },
    { tree: "worktree", label: "working tree after the agent's edit", report: await check(memfsTree(fs, DIR)) },
  ];
}
