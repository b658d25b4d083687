// A stage's verdict is a function of its commit and its own acceptance: in a pass over several
// stages (preflight, the final verification, verifyContract), each stage runs in a room of its own.
import { describe, expect, it } from "vitest";
import { runPlan, scriptTable, verifyContract } from "../src/index.js";
import { contractOf, makeRepo, nodeOptions, planOf } from "./harness.js";

/** A repository holding `files`, a plan of two stages with one acceptance row each, and the options to run it with no agent work. */
async function twoStages(files: Record<string, string>, first: string, second: string) {
  const repo = await makeRepo(files);
  const contract = await contractOf(
    repo,
    planOf([
      ["first", [first]],
      ["second", [second]],
    ]),
  );
  const options = () => nodeOptions(repo, scriptTable({}));
  const { agent: _agent, ...verify } = options();
  return { contract, options, green: async () => (await verifyContract(contract, verify))._unsafeUnwrap().green };
}

describe("one clean room per stage in a verification pass", () => {
  it("a stage whose acceptance deletes a file does not turn a later stage that needs it red", async () => {
    const t = await twoStages({ "seed.txt": "s\n" }, "`rm -f seed.txt` exits 0", "`test -f seed.txt` exits 0");
    expect(await t.green()).toEqual(["S1", "S2"]);
    const report = (await runPlan(t.contract, t.options()))._unsafeUnwrap();
    expect([report.status, report.start.green, report.end.green]).toEqual(["green", ["S1", "S2"], ["S1", "S2"]]);
  });

  it("what one stage's acceptance builds cannot make a later stage green", async () => {
    const t = await twoStages({ "README.md": "r\n" }, "`mkdir -p out && touch out/built` exits 0", "`test -f out/built` exits 0");
    expect(await t.green()).toEqual(["S1"]);
  });
});
