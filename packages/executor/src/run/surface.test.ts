import type { Contract } from "@decay/contract";
import { describe, expect, it } from "vitest";
import { surfacePaths } from "./surface.js";

const contract = (run: string, plan = "docs/p.plan.md") => ({ plan, stages: [{ acceptance: [{ id: "S1.1", run }] }] }) as unknown as Contract;
const files = ["scripts/check.sh", "scripts/other.sh", "src/a.txt", "docs/p.plan.md"];

describe("surfacePaths reads a command's words as the shell and git would", () => {
  it.each([
    "sh scripts/check.sh",
    "sh ./scripts/check.sh",
    "sh scripts//check.sh",
    "sh scripts/./check.sh",
    "sh src/../scripts/check.sh",
    "sh $PWD/scripts/check.sh",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${PWD}, as a plan writes it
    "sh ${PWD}/scripts/check.sh",
    'sh "$(pwd)/scripts/check.sh"',
    "sh `pwd`/scripts/check.sh",
    'sh "$PWD/scripts/check.sh"',
    'sh "$PWD"/scripts/check.sh',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${PWD}, as a plan writes it
    'sh "${PWD}/scripts/check.sh"',
    'sh "`pwd`/scripts/check.sh"',
    'sh scri""pts/check.sh',
    "sh scri\\pts/check.sh",
    "sh /repo/scripts/check.sh",
    "bash -c 'sh scripts/check.sh'",
  ])("%s pins scripts/check.sh", (run) => {
    expect(surfacePaths(contract(run), files, [], "/repo")).toEqual(["docs/p.plan.md", "scripts/check.sh"]);
  });

  it("a wildcard pins nothing (it names the stage's work as often as a check: `cat src/*.txt`); a path out of the repository pins nothing", () => {
    expect(surfacePaths(contract("cat src/*.txt"), files, [])).toEqual(["docs/p.plan.md"]);
    expect(surfacePaths(contract("sh ../scripts/check.sh"), files, [])).toEqual(["docs/p.plan.md"]);
    expect(surfacePaths(contract("cd . && true"), files, [])).toEqual(["docs/p.plan.md"]);
  });

  it.each([
    "cd scripts && sh ./check.sh",
    "cd src && sh ../scripts/check.sh",
    "cd src; bash ../scripts/check.sh",
    "(cd src && sh ../scripts/check.sh)",
    "cd src/ && cd .. && sh scripts/check.sh",
    "sh -c 'cd src && sh ../scripts/check.sh'",
    "make -C src -f ../scripts/check.sh",
    "npm --prefix=src exec -- sh ../scripts/check.sh",
  ])("%s pins scripts/check.sh: a relative word is read from where the program runs too", (run) => {
    expect(surfacePaths(contract(run), files, [])).toContain("scripts/check.sh");
  });

  it("a word read from where a program runs pins nothing out of the repository, and `cd -` or `cd $X` adds no directory", () => {
    expect(surfacePaths(contract("cd src && sh ../../scripts/check.sh"), files, [])).toEqual(["docs/p.plan.md", "src/a.txt"]);
    expect(surfacePaths(contract("cd - && sh ../scripts/check.sh"), files, [])).toEqual(["docs/p.plan.md"]);
    expect(surfacePaths(contract("cd $X && sh ../scripts/check.sh"), files, [])).toEqual(["docs/p.plan.md"]);
  });

  it("the plan is pinned however the contract spells its path", () => {
    for (const plan of ["docs/p.plan.md", "./docs/p.plan.md", "docs//p.plan.md", "/repo/docs/p.plan.md"]) {
      expect(surfacePaths(contract("true", plan), files, [], "/repo")).toEqual(["docs/p.plan.md"]);
    }
  });
});
