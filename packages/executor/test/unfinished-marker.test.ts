// The marker an unfinished run leaves (.plan-runs/<slug>/unfinished.txt) names the commit it
// started at; one git cannot read is refused naming the marker and the way out, never git's own error.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPlan, scriptTable } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, writeFiles } from "./harness.js";

describe("an unfinished run's marker naming a commit the repository does not hold", () => {
  it("is refused naming the marker; without its `started at` line the run goes on", async () => {
    const repo = await makeRepo({ "README.md": "r\n" });
    const contract = await contractOf(repo, planOf([["a", ["`sh bin/show.sh a` exits 0 and prints `alpha`"]]]));
    const marker = ".plan-runs/demo/unfinished.txt";
    const gone = "0123456789abcdef0123456789abcdef01234567";
    writeFiles(repo, { [marker]: `A run of docs/demo.plan.md started and has not ended with a report.\nstarted at ${gone}\n` });
    const script = scriptTable({ "S1 execute": { edit: { "src/a.txt": "alpha\n" } } });
    const refused = (await runPlan(contract, nodeOptions(repo, script)))._unsafeUnwrapErr();
    expect(refused).toMatchObject({ code: "workspace-io", path: marker });
    expect(refused.code === "workspace-io" ? refused.reason : "").toMatch(
      new RegExp(`^it says an unfinished run started at ${gone}, which git cannot read here \\(.+\\); remove that line from the file and run again`),
    );
    // Refused before anything ran or changed: no ledger, still on main.
    expect(existsSync(join(repo, ".plan-runs/demo/ledger"))).toBe(false);
    expect(git(repo, "branch", "--show-current")).toBe("main");
    const file = join(repo, marker);
    writeFileSync(file, readFileSync(file, "utf8").replace(/^started at .*\n/m, ""));
    const report = (await runPlan(contract, nodeOptions(repo, script)))._unsafeUnwrap();
    expect(report.status).toBe("green");
  });
});
