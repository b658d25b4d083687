import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { faultyTree } from "../testing/faulty.js";
import { nodeTree } from "../node/tree.js";
import { Report } from "../core/model.js";
import { ASSUMPTIONS_FAULT_CODES } from "./gate.js";
import { MAX_PLAN_ROWS } from "../core/parse.js";
import { exitCodeFor, type GateFault } from "./exit.js";
import { CLI_FAULT_CODES } from "./faults.js";
import { JsonFault } from "./json.js";
import { main } from "./main.js";
import { memoryIo, REPO_ROOT } from "../../test/support/memory-io.js";

const G = "fixtures/gate";
const PLAN = `${G}/batch-plan.assumptions.tsv`;
const LEDGER_DIGEST = "9f4c9f8db78cb90ae3daec32262537cf93ea035b43401c15a3904bb83b4f9a53";

async function run(argv: string[], opts: Parameters<typeof memoryIo>[0] = {}) {
  const m = memoryIo(opts);
  const code = await main(argv, m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}

describe("checking the red/green pair", () => {
  test("the tree the plan was written against: every row holds, exit 0", async () => {
    const r = await run(["--root", `${G}/plan-holds`, PLAN]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")).toEqual([
      "HOLD    line 4: exists src/payments.ts",
      "HOLD    line 5: exists src/",
      "HOLD    line 6: absent src/refunds.ts",
      "HOLD    line 7: contains src/payments.ts",
      "HOLD    line 8: lacks src/payments.ts",
      "HOLD    line 9: unchanged src/ledger.ts",
      `CHECKED 6 assumption(s) against ${G}/plan-holds - 6 held, 0 diverged`,
      expect.stringMatching(/^PLAN HOLDS: /),
      "",
    ]);
  });

  test("the tree that moved: four rows diverge, HALT, exit 1", async () => {
    const r = await run(["--root", `${G}/plan-decayed`, PLAN]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines.filter((l) => l.startsWith("DIVERGE ")).map((l) => l.slice(0, l.indexOf(" - ")))).toEqual([
      "DIVERGE line 6: absent src/refunds.ts",
      "DIVERGE line 7: contains src/payments.ts",
      "DIVERGE line 8: lacks src/payments.ts",
      "DIVERGE line 9: unchanged src/ledger.ts",
    ]);
    expect(lines).toContain(`CHECKED 6 assumption(s) against ${G}/plan-decayed - 2 held, 4 diverged`);
    expect(lines[7]).toMatch(/^HALT: the plan no longer describes this tree\./);
  });

  test("standard input (-) is read as the assumptions file", async () => {
    const r = await run(["--root", `${G}/plan-holds`, "-"], { stdin: readFileSync(`${REPO_ROOT}/${PLAN}`) });
    expect(r.code).toBe(0);
  });

  test("a plan of more rows than the bound is refused before any row is checked: exit 2, the line and the bound named", async () => {
    // 9 MB, well inside the input bound, one row more than the gate checks.
    const stdin = Buffer.from("exists\tsrc/payments.ts\n".repeat(MAX_PLAN_ROWS + 1));
    const r = await run(["--json", "--root", `${G}/plan-holds`, "-"], { stdin });
    expect(r.code).toBe(2);
    expect(JsonFault.parse(JSON.parse(r.stdout)).fault).toMatchObject({ code: "plan-too-large", line: MAX_PLAN_ROWS + 1 });
    expect(r.stderr).toMatch(/^error: line 1000001: the assumptions file holds more than 1000000 rows/);
  });
});

describe("--json and --format github", () => {
  test("--json prints a report that matches the schema, with the verdict's exit code", async () => {
    const r = await run(["--root", `${G}/plan-decayed`, "--json", PLAN]);
    expect(r.code).toBe(1);
    const report = Report.parse(JSON.parse(r.stdout));
    expect(report).toMatchObject({ verdict: "diverged", root: `${G}/plan-decayed`, checked: 6, held: 2, diverged: 4 });
    expect(report.rows.map((row) => row.status)).toEqual(["hold", "hold", "diverge", "diverge", "diverge", "diverge"]);
  });

  test("--json on a fault prints {fault} on stdout and error: on stderr, exit 2", async () => {
    const r = await run(["--root", `${G}/plan-holds`, "--json", `${G}/malformed/unknown-kind.tsv`]);
    expect(r.code).toBe(2);
    const { fault } = JsonFault.parse(JSON.parse(r.stdout));
    expect(fault).toMatchObject({ code: "unknown-kind", line: 2 });
    expect(r.stderr).toBe(`error: ${fault.message}\n`);
  });

  test("--format github: one ::error per diverged row before the human report", async () => {
    const r = await run(["--root", `${G}/plan-decayed`, "--format", "github", PLAN]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 4).map((l) => l.slice(0, l.indexOf(",title=")))).toEqual([6, 7, 8, 9].map((n) => `::error file=${PLAN},line=${n}`));
    expect(lines[0]).toMatch(/,title=[a-z]+ [^:,]+::/);
    expect(lines[4]).toBe("HOLD    line 4: exists src/payments.ts");
  });

  test("a usage error under --json or --format github is shown that way too, besides error: on stderr", async () => {
    const json = await run(["--json", PLAN]);
    expect(json.code).toBe(2);
    expect(JsonFault.parse(JSON.parse(json.stdout)).fault).toMatchObject({ code: "usage-missing-root" });
    expect(json.stderr).toMatch(/^error: --root DIR is required/);
    const github = await run(["--format", "github", "--root", `${G}/plan-holds`, "--nope", PLAN]);
    expect(github.code).toBe(2);
    expect(github.stdout).toMatch(/^::error title=plan-decay usage-unknown-flag::unknown option --nope/);
    expect((await run(["--json", "--root", `${G}/plan-holds`, "--", "--json"])).stdout).toMatch(/^\{/);
    expect((await run(["--root", `${G}/plan-holds`, "--nope", "--", "--json"])).stdout).toBe("");
  });

  test("--format github on a fault: one ::error naming the line", async () => {
    const r = await run(["--root", `${G}/plan-holds`, "--format", "github", `${G}/malformed/dotdot.tsv`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(new RegExp(`^::error file=${G}/malformed/dotdot.tsv,line=1,title=plan-decay path-dotdot::line 1: .*\\.\\.`));
  });
});

describe("digest, help, version, usage", () => {
  test("--digest prints DIGEST <path as given> <hex> and exits 3", async () => {
    const r = await run(["--root", `${G}/plan-holds`, "--digest", "./src/ledger.ts"]);
    expect(r).toEqual({ code: 3, stdout: `DIGEST ./src/ledger.ts ${LEDGER_DIGEST}\n`, stderr: "" });
  });

  test("--digest with an assumptions file is a usage error, exit 2", async () => {
    const r = await run(["--root", `${G}/plan-holds`, "--digest", "src/ledger.ts", PLAN]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  test("--help prints usage and computes no verdict; --version prints the package version", async () => {
    const help = await run(["--root", `${G}/plan-decayed`, PLAN, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^plan-decay: /);
    expect(help.stdout).not.toMatch(/^(CHECKED|HALT|PLAN HOLDS)/m);
    const pkg = JSON.parse(readFileSync(`${REPO_ROOT}/packages/assumptions/package.json`, "utf8")) as { version: string };
    expect(await run(["--version"])).toEqual({ code: 0, stdout: `plan-decay ${pkg.version}\n`, stderr: "" });
  });

  test("usage errors and bad roots or inputs exit 2 with error: on stderr and nothing on stdout", async () => {
    for (const argv of [
      [PLAN],
      ["--root", "", PLAN],
      ["--root", `${G}/plan-holds`, "--nope", PLAN],
      ["--root", `${G}/nope`, PLAN],
      ["--root", PLAN, PLAN],
      ["--root", `${G}/plan-holds`],
      ["--root", `${G}/plan-holds`, `${G}/missing.tsv`],
      ["--root", `${G}/plan-holds`, `${G}/plan-holds`],
    ]) {
      const r = await run(argv);
      expect([argv, r.code, r.stdout]).toEqual([argv, 2, ""]);
      expect(r.stderr).toMatch(/^error: /);
    }
  });
});

describe("the seal", () => {
  test("a stdout write that fails (throwing or rejecting) turns every outcome into 2", async () => {
    for (const stdout of ["throws", "rejects"] as const) {
      for (const argv of [
        ["--root", `${G}/plan-holds`, PLAN],
        ["--root", `${G}/plan-decayed`, PLAN],
        ["--root", `${G}/plan-holds`, "--digest", "src/ledger.ts"],
        ["--help"],
        ["--version"],
      ]) {
        const r = await run(argv, { stdout });
        expect([argv, r.code]).toEqual([argv, 2]);
        expect(r.stderr).toMatch(/^error: standard output could not be written \(EPIPE\)/);
      }
    }
  });

  test("an exception anywhere becomes 2, never a verdict", async () => {
    const m = memoryIo();
    const io = Object.defineProperty({ ...m.io }, "cwd", {
      get: () => {
        throw new Error("boom");
      },
    });
    expect(await main(["--root", `${G}/plan-holds`, PLAN], io)).toBe(2);
    expect(m.stderr()).toMatch(/^error: internal error: Error: boom/);
    expect(m.stdout()).toBe("");
  });

  test("an unreadable directory (injected through faultyTree) is a fault, not a verdict", async () => {
    const openTree = (root: string) =>
      faultyTree(nodeTree(`${REPO_ROOT}/${root}`, { describe: root }), (op, path) =>
        op === "list" && path === "src" ? { code: "tree-io", path, message: "src: EACCES" } : undefined,
      );
    const r = await run(["--root", `${G}/plan-holds`, PLAN], { openTree });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*EACCES/);
  });

  test("every fault code of the core and the CLI exits 2", () => {
    for (const code of [...ASSUMPTIONS_FAULT_CODES, ...CLI_FAULT_CODES]) {
      expect([code, exitCodeFor({ code } as GateFault)]).toEqual([code, 2]);
    }
  });
});
