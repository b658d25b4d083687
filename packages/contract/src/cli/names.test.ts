// File names the command line hands decay-contract: line breaks, bytes that are not UTF-8, an
// output that is its own input, and what --version takes. Real temp directories, the real CLI.
import { execFile } from "node:child_process";
import { copyFileSync, linkSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import type { CliIo } from "./io.js";
import { main } from "./main.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const refunds = join(root, "fixtures/plans/refunds-report.plan.md");

async function run(argv: string[], cwd = root) {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = { stdout: async (t) => void (out.stdout += t), stderr: async (t) => void (out.stderr += t), cwd, env: {} };
  return { code: await main(argv, io), ...out };
}

/** A temp directory holding the refunds plan under each of `names`. */
async function plans(...names: string[]): Promise<string> {
  const dir = await tempDir();
  for (const name of names) copyFileSync(refunds, join(dir, name));
  return dir;
}

describe("a plan whose name holds a line break", () => {
  test("compile and check refuse it (exit 2) on one line naming it escaped; nothing is written", async () => {
    const dir = await plans("nl\nname.md");
    for (const argv of [
      ["compile", "nl\nname.md"],
      ["check", "nl\nname.md"],
      ["compile", "nl\nname.md", "-o", "c.md"],
    ]) {
      const r = await run(argv, dir);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toBe(
        'decay-contract: "nl\\nname.md": cannot compile: its name holds a line break, and a contract records its plan\'s path on one line (plan:); rename the file\n',
      );
    }
    expect(readdirSync(dir)).toEqual(["nl\nname.md"]);
  });
  test("a contract of such a name is checked as usual: only a plan's path goes into a contract", async () => {
    const dir = await plans("p.md");
    expect((await run(["compile", "p.md", "-q", "-o", "c\nontract.md"], dir)).code).toBe(0);
    const r = await run(["check", "c\nontract.md"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/0 refusal\(s\)/);
  });
  test("a file that cannot be read is named on one line too", async () => {
    const r = await run(["compile", "gone\r\nplan.md"], await tempDir());
    expect([r.code, r.stderr]).toEqual([2, 'decay-contract: "gone\\r\\nplan.md": cannot read: no such file or directory\n']);
  });
});

describe("-o naming the input", () => {
  test("compile and import refuse an output that is the plan (the same path, a hard link, through a symbolic link), naming both; the plan is intact", async () => {
    const dir = await plans("p.md");
    linkSync(join(dir, "p.md"), join(dir, "hard.md"));
    symlinkSync("p.md", join(dir, "sym.md"));
    copyFileSync(join(root, "fixtures/plans/import/task-plan.md"), join(dir, "t.md"));
    for (const [cmd, input, output] of [
      ["compile", "p.md", "p.md"],
      ["compile", "p.md", "./p.md"],
      ["compile", "p.md", "hard.md"],
      ["compile", "sym.md", "p.md"],
      ["import", "t.md", "t.md"],
    ] as const) {
      const r = await run([cmd, input, "-o", output], dir);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toBe(`decay-contract: ${output}: cannot write: it is the same file as the input ${input}, which writing it would replace\n`);
    }
    expect(readFileSync(join(dir, "p.md"))).toEqual(readFileSync(refunds));
    expect(readFileSync(join(dir, "t.md"))).toEqual(readFileSync(join(root, "fixtures/plans/import/task-plan.md")));
  });
  test("another file is written", async () => {
    const dir = await plans("p.md");
    expect((await run(["compile", "p.md", "-q", "-o", "contract.md"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, "contract.md"), "utf8")).toMatch(/^---\nformat: decay-contract\/2\nplan: p\.md\n/);
  });
});

describe("--version takes nothing else", () => {
  test.each([
    [["--version", "extra"], 'unexpected argument "extra"'],
    [["compile", "p.md", "--version"], 'unexpected argument "p.md"'],
    [["--version", "--nope"], "unknown option --nope"],
    [["check", "--version", "--json"], "--json is not an option of decay-contract --version"],
  ])("%j is a usage fault (exit 2)", async (argv, message) => {
    expect(await run(argv)).toEqual({ code: 2, stdout: "", stderr: `decay-contract: ${message} (see decay-contract --help)\n` });
  });
  test("--help still wins over the rest, --version and extra arguments included", async () => {
    for (const argv of [
      ["--version", "--help"],
      ["--help", "extra"],
      ["compile", "p.md", "--version", "-h"],
    ]) {
      const r = await run(argv);
      expect([argv, r.code, r.stdout]).toEqual([argv, 0, expect.stringMatching(/Usage/)]);
    }
  });
});

describe("a file name that is not UTF-8 (the built bin, given the raw bytes)", () => {
  test("is said to be not valid UTF-8, never a bare ENOENT; exit 2", async () => {
    const dir = await tempDir();
    // The plan's name is the byte 0xff then ".md": the shell passes those bytes, Node reads U+FFFD.
    copyFileSync(refunds, Buffer.from(`${dir}/\xff.md`, "latin1"));
    const bin = join(root, "packages/contract/dist/bin.js");
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile("sh", ["-c", `"$0" "$1" compile "$(printf '\\377.md')"`, process.execPath, bin], { cwd: dir }, (error, _stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 2) : 0, stderr });
      });
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^decay-contract: \ufffd\.md: cannot read: no such file: its name holds U\+FFFD, .*not valid UTF-8/);
    expect(r.stderr.split("\n")).toHaveLength(2);
  });
});
