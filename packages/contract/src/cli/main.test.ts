import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { CONTRACT_SCHEMA_ID } from "../json-output.js";
import { parseContract } from "../parse-contract.js";
import { sealContract } from "../../test/support/seal.js";
import type { CliIo } from "./io.js";
import { main } from "./main.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(root, "fixtures/plans", name), "utf8"));

async function run(argv: string[], opts: { failStdout?: boolean; cwd?: string } = {}) {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdout: async (t) => {
      if (opts.failStdout) throw new Error("EPIPE");
      out.stdout += t;
    },
    stderr: async (t) => void (out.stderr += t),
    cwd: opts.cwd ?? root,
    env: {},
  };
  return { code: await main(argv, io), ...out };
}

const refunds = "fixtures/plans/refunds-report.plan.md";
const trip = (name: string) => `fixtures/plans/self-check/${name}.contract.md`;

describe("decay-contract of a file opening with two BOMs", () => {
  test("check and compile exit 2 naming the file and line 1; one BOM is accepted", async () => {
    const dir = await tempDir();
    const compiled = await run(["compile", refunds]);
    const plan = readFileSync(join(root, refunds), "utf8");
    await writeFile(join(dir, "c1.md"), `\uFEFF${compiled.stdout}`);
    await writeFile(join(dir, "c2.md"), `\uFEFF\uFEFF${compiled.stdout}`);
    await writeFile(join(dir, "p1.md"), `\uFEFF${plan}`);
    await writeFile(join(dir, "p2.md"), `\uFEFF\uFEFF${plan}`);
    expect((await run(["check", join(dir, "c1.md")])).code).toBe(0);
    expect((await run(["compile", join(dir, "p1.md")])).code).toBe(0);
    for (const [cmd, file] of [
      ["check", "c2.md"],
      ["compile", "p2.md"],
      ["check", "p2.md"],
    ] as const) {
      const r = await run([cmd, join(dir, file)]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`${join(dir, file)}: line 1: the file starts with two byte order marks (U+FEFF)`);
    }
  });
});

describe("decay-contract check of a contract with CRLF line endings", () => {
  test("exits 2 naming the line endings, not an edit", async () => {
    const dir = await tempDir();
    const compiled = await run(["compile", refunds]);
    await writeFile(join(dir, "crlf.md"), compiled.stdout.replace(/\n/g, "\r\n"));
    const r = await run(["check", join(dir, "crlf.md")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/crlf\.md: line 1: the contract has CRLF line endings.*contract\.md -text in \.gitattributes/);
    expect(r.stderr).not.toContain("truncated or edited");
  });
});

describe("decay-contract compile", () => {
  test("writes contract.md to stdout; it reads back as the expected contract", async () => {
    const r = await run(["compile", refunds]);
    expect(r.code).toBe(0);
    expect(parseContract(r.stdout)._unsafeUnwrap()).toEqual(fixture("refunds-report.contract.json"));
  });
  test("--json prints the Contract with the documented field names", async () => {
    const r = await run(["compile", refunds, "--json"]);
    expect(r.code).toBe(0);
    const { $schema, version, ...contract } = JSON.parse(r.stdout) as Record<string, unknown>;
    expect({ $schema, version }).toEqual({ $schema: CONTRACT_SCHEMA_ID, version: 1 });
    expect(contract).toEqual(fixture("refunds-report.contract.json"));
  });
  test("plan_sha256 hashes the file's exact bytes (a BOM and CRLF included)", async () => {
    const dir = await tempDir();
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(root, refunds)), Buffer.from("\r\n")]);
    await writeFile(join(dir, "p.md"), bytes);
    const r = await run(["compile", join(dir, "p.md"), "--json"]);
    expect(JSON.parse(r.stdout).plan_sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  });
  test("bytes that are not UTF-8 are a fault naming the line and byte offset, never a silent U+FFFD", async () => {
    const dir = await tempDir();
    const head = readFileSync(join(root, refunds));
    const lines = head.toString("utf8").split("\n").length;
    await writeFile(join(dir, "p.md"), Buffer.concat([head, Buffer.from([0x61, 0xff, 0xfe, 0x0a])]));
    const r = await run(["compile", join(dir, "p.md")]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(
      `decay-contract: ${join(dir, "p.md")}: line ${lines}: the file is not valid UTF-8: byte 0xFF at byte offset ${head.length + 1} (byte 1 of the line) cannot be decoded\n`,
    );
  });
  test.each(["-h", "--x.md", "out.md"])("-o=%s is refused, and each spelling its advice offers writes that file", async (name) => {
    const dir = await tempDir();
    const refused = await run(["compile", join(root, refunds), `-o=${name}`], { cwd: dir });
    expect([refused.code, refused.stdout]).toEqual([2, ""]);
    const advice = /: write (.*) \(see decay-contract --help\)\n$/.exec(refused.stderr)?.[1] ?? "";
    expect(advice).toContain(`--output=${name}`);
    for (const spelling of advice.split(" or ")) {
      await rm(join(dir, name), { force: true });
      const r = await run(["compile", join(root, refunds), ...spelling.split(" ")], { cwd: dir });
      expect([spelling, r.code, r.stdout]).toEqual([spelling, 0, ""]);
      expect(parseContract(await readFile(join(dir, name), "utf8")).isOk()).toBe(true);
    }
  });
  test("-o writes the file and nothing to stdout", async () => {
    const dir = await tempDir();
    const r = await run(["compile", refunds, "-o", join(dir, "contract.md")]);
    expect([r.code, r.stdout]).toEqual([0, ""]);
    const written = await readFile(join(dir, "contract.md"), "utf8");
    expect(parseContract(written)._unsafeUnwrap().plan).toBe(refunds);
  });
  test.each([
    ["a task plan", ["compile", "fixtures/plans/task-plan-with-record.plan.md"], /line 8: .*task plan/],
    ["an unstaged recommendation", ["compile", "fixtures/plans/malformed/unstaged-recommendation.plan.md"], /line 7: recommendation is not staged/],
    ["a missing file", ["compile", "fixtures/plans/nope.plan.md"], /nope\.plan\.md: cannot read/],
    ["no file", ["compile"], /exactly one file/],
    ["an unknown option", ["compile", refunds, "--fast"], /unknown option --fast/],
    ["an unknown command", ["run", refunds], /unknown command run/],
  ])("%s is a fault: exit 2, the sentence on stderr, nothing on stdout", async (_what, argv, message) => {
    const r = await run(argv);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(message);
  });
  test("a failed write to stdout is exit 2, never a verdict", async () => {
    expect((await run(["compile", refunds], { failStdout: true })).code).toBe(2);
    expect((await run(["check", trip("no-acceptance")], { failStdout: true })).code).toBe(2);
  });
});

describe("decay-contract check", () => {
  test("a plan given directly is compiled first; the refunds plan has no finding", async () => {
    const r = await run(["check", refunds]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("0 refusal(s), 0 warning(s)\n");
  });
  test("refusals exit 1, and --json prints findings with code, severity, stage, row, message", async () => {
    const r = await run(["check", trip("review-note"), "--plan", refunds, "--json"]);
    expect(r.code).toBe(1);
    const { findings } = JSON.parse(r.stdout) as { findings: Record<string, unknown>[] };
    expect(findings.map((f) => Object.keys(f).sort())).toContainEqual(["code", "message", "row", "severity", "stage"]);
    expect(findings.map((f) => f.code)).toEqual(["review-note", "git-clone", "weak-row", "review-note"]);
  });
  test("--json gives every finding all five fields; a contract-wide finding has stage and row null", async () => {
    const r = await run(["check", trip("worktree"), "--json"]);
    expect(r.code).toBe(1);
    const { findings } = JSON.parse(r.stdout) as { findings: Record<string, unknown>[] };
    for (const f of findings) expect(Object.keys(f)).toEqual(["code", "severity", "stage", "row", "message"]);
    expect(findings.find((f) => f.code === "worktree-state")).toMatchObject({ stage: null, row: null });
  });
  test("warnings alone are printed and exit 0; without --plan the ordering rule says it was not checked", async () => {
    const r = await run(["check", trip("weak-row")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^warn weak-row S1 S1\.1: /m);
    expect(r.stdout).toMatch(/^warn ordering-unchecked: /m);
  });
  test("--plan reports a plan that changed under the contract", async () => {
    const r = await run(["check", trip("plan-drift"), "--plan", refunds]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^refuse plan-drift: the plan changed/m);
  });
  test("a plan whose row runs an npm abbreviation of publish, or git push inside env -S, is refused (exit 1)", async () => {
    const dir = await tempDir();
    const rows = ["npm pub", "npm publ", "npm unpub pkg@1.0.0", 'env -S "git push origin main"'];
    await writeFile(join(dir, "p.md"), ["## Stages", "", "### Stage 1: ship", "", ...rows.map((r) => `Acceptance: \`${r}\` exits 0`), ""].join("\n"));
    const r = await run(["check", join(dir, "p.md")]);
    expect(r.code).toBe(1);
    const what = [...r.stdout.matchAll(/^refuse writes-outward S1 (S1\.\d)/gm)].map((m) => m[1]);
    expect(what).toEqual(["S1.1", "S1.2", "S1.3", "S1.4"]);
    expect(r.stdout).toMatch(/^4 refusal\(s\)/m);
  });
  test("a broken contract is a fault naming its line, not a verdict", async () => {
    const dir = await tempDir();
    const text = sealContract(readFileSync(join(root, trip("weak-row")), "utf8").replace("- optional: false", "- optional: maybe"));
    await writeFile(join(dir, "c.md"), text);
    const r = await run(["check", join(dir, "c.md")]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(/c\.md: line 28: expected - optional: true\|false, found "- optional: maybe"/);
  });
});

describe("--help and --version", () => {
  const version = (JSON.parse(readFileSync(join(root, "packages/contract/package.json"), "utf8")) as { version: string }).version;
  test.each([[["--help"]], [["compile", "--help"]], [["check", "--help"]], [["compile", "-hq", "plan.md"]], [["compile", "-qh"]]])(
    "%j prints usage and exits 0",
    async (argv) => {
      const r = await run(argv);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Usage/);
    },
  );
  test.each([[["--version"]], [["compile", "--version"]], [["check", "--version"]]])("%j prints the package version", async (argv) => {
    expect(await run(argv)).toEqual({ code: 0, stdout: `decay-contract ${version}\n`, stderr: "" });
  });
});

describe("the built bin", () => {
  const bin = join(root, "packages/contract/dist/bin.js");
  const exec = (args: string[]) =>
    new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [bin, ...args], { cwd: root }, (error, stdout) => {
        resolve({ code: error ? Number(error.code ?? 2) : 0, stdout });
      });
    });
  test("compiles a plan and refuses a contract through real exit codes", async () => {
    expect((await exec(["compile", refunds])).code).toBe(0);
    expect((await exec(["check", trip("no-acceptance")])).code).toBe(1);
    expect((await exec(["compile", "fixtures/plans/malformed/no-recommendation.plan.md"])).code).toBe(2);
  });
});

describe("decay-contract import of a plan with a fence never closed", () => {
  test("exits 2 naming the file and the fence's line; nothing is written, no count of 0 items is claimed", async () => {
    const dir = await tempDir();
    const plan = join(dir, "tasks.md");
    const out = join(dir, "staged.plan.md");
    await writeFile(plan, ["# P", "", "### Task 1: A", "", "```bash", "npm test", "", "Run: `npm test`", "Expected: PASS", "", "### Task 2: B", ""].join("\n"));
    const r = await run(["import", plan, "-o", out]);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe(
      `decay-contract: ${plan}: line 5: "\`\`\`bash" opens a code fence that is never closed: it runs to the end of the plan and hides line 8 ("Run: \`npm test\`"), and would hide what the import writes after it; close it with a line of at least as many of the same backticks or tildes\n`,
    );
    await expect(readFile(out, "utf8")).rejects.toThrow(/ENOENT/);
  });
  test("a fence that closes over a task heading: written, and the heading is counted and named as not converted", async () => {
    // The repro: this plan imported as 2 stages with "0 items not converted", Task 3 gone into Task 2's code.
    const dir = await tempDir();
    const plan = join(dir, "tasks.md");
    const out = join(dir, "staged.plan.md");
    const body = [
      "# P",
      "",
      "### Task 1: A",
      "",
      "Run: `npm run a`",
      "Expected: PASS",
      "",
      "### Task 2: B",
      "",
      "```sh",
      "npm test",
      "",
      "### Task 3: C",
      "```",
      "",
    ];
    await writeFile(plan, body.join("\n"));
    const r = await run(["import", plan, "-o", out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/imported a task plan as 2 stages; 1 item not converted:\n {2}line 13: ### Task 3: C \(a task heading inside a code block, /);
    expect(await readFile(out, "utf8")).toContain("- line 13: ### Task 3: C (a task heading inside a code block, ");
  });
});

describe("decay-contract check --include-optional", () => {
  test("a plan whose every stage is optional: refused as verifying nothing, checked as a run that includes them with the flag", async () => {
    const dir = await tempDir();
    const plan = join(dir, "op.plan.md");
    await writeFile(plan, "# Plan: x\n\n## 6. Recommendation (staged)\n\n### Stage 1 (optional): sum\n\nAcceptance: `true` exits 0\n");
    const without = await run(["check", plan]);
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("every stage is optional and the run leaves optional stages out");
    const withFlag = await run(["check", plan, "--include-optional"]);
    expect([withFlag.code, withFlag.stdout]).toEqual([0, "0 refusal(s), 0 warning(s)\n"]);
  });
});
