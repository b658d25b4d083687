// decay (the built bin) against a FIFO nobody ever opens for writing, as a plan, a contract's plan
// and a journal: refused before it is opened, exit 2, one line naming it. Opening such a FIFO
// blocks forever, so a run that ends with exit 2 (not killed by runBin's timeout) never opened it.
import * as fs from "node:fs";
import { join } from "node:path";
import { compileContract, readPlan, renderContract } from "@decay/contract";
import { describe, expect, test } from "vitest";
import { REPO, expectFault, fifo, runBin, snapshot } from "../../../../test-utils/hostile.js";
import { tempDir } from "../../../../test-utils/tmp.js";

const BIN = join(REPO, "packages/executor/dist/bin.js");
const PLAN = fs.readFileSync(join(REPO, "fixtures/plans/refunds-report.plan.md"), "utf8");

async function scene(extra: (dir: string) => void | Promise<void>) {
  const dir = await tempDir("decay-hostile-executor-");
  await extra(dir);
  return { dir, before: snapshot(dir) };
}

describe("decay: a FIFO input is refused before it is opened", () => {
  test.each([
    ["run", ["run", "pipe.md", "--agent", "node"]],
    ["preflight", ["preflight", "pipe.md"]],
    ["verify", ["verify", "pipe.md"]],
    ["journal show", ["journal", "show", "pipe.md"]],
  ])("decay %s on a FIFO plan", async (_, args) => {
    const { dir, before } = await scene((d) => void fifo(join(d, "pipe.md")));
    expectFault(await runBin(BIN, args, { cwd: dir }), "pipe.md", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("a contract whose plan (named inside it) is a FIFO: refused, naming the plan", async () => {
    const { dir, before } = await scene(async (d) => {
      const contract = await compileContract(readPlan(PLAN)._unsafeUnwrap(), { planPath: "plan.md", planText: PLAN });
      fs.writeFileSync(join(d, "c.md"), renderContract(contract._unsafeUnwrap()));
      fifo(join(d, "plan.md"));
    });
    expectFault(await runBin(BIN, ["preflight", "c.md"], { cwd: dir }), "plan.md", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });
});
