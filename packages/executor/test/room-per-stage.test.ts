// A stage's verdict is a function of its commit and its own acceptance: in a pass over several
// stages (preflight, the final verification, verifyContract), each stage runs in a room of its own.
import { describe, expect, it } from "vitest";
import { runPlan, scriptTable, verifyContract } from "../src/index.js";
import { contractOf, makeRepo, nodeOptions, planOf } from "./harness.js";

describe("one clean room per stage in a verification pass", () => {
  it("a stage whose acceptance deletes a file does not turn a later stage that needs it red", async () => {
    const repo = await makeRepo({ "seed.txt": "s\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["one", ["`rm -f seed.txt` exits 0"]],
        ["two", ["`test -f seed.txt` exits 0"]],
      ]),
    );
    const { agent: _agent, ...options } = nodeOptions(repo, scriptTable({}));
    expect((await verifyContract(contract, options))._unsafeUnwrap().green).toEqual(["S1", "S2"]);
    const report = (await runPlan(contract, nodeOptions(repo, scriptTable({}))))._unsafeUnwrap();
    expect([report.status, report.start.green, report.end.green]).toEqual(["green", ["S1", "S2"], ["S1", "S2"]]);
  });

  it("what one stage's acceptance builds cannot make a later stage green", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(
      repo,
      planOf([
        ["build", ["`mkdir -p out && touch out/built` exits 0"]],
        ["needs the build", ["`test -f out/built` exits 0"]],
      ]),
    );
    const { agent: _agent, ...options } = nodeOptions(repo, scriptTable({}));
    expect((await verifyContract(contract, options))._unsafeUnwrap().green).toEqual(["S1"]);
  });
});
