import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { JournalIo } from "../../src/cli/journal.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { git, tempRepo } from "./git-helper.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const sample = join(root, "fixtures/plans/task-plan-with-record.plan.md");
const bin = join(root, "packages/executor/dist/bin.js");

/** main as the bin calls it: no adapters passed, so resume uses systemGit and nodeShell. */
async function call(argv: string[], cwd: string, signal?: AbortSignal) {
  let stdout = "";
  let stderr = "";
  const io: JournalIo = {
    stdin: (async function* () {})(),
    stdout: { write: (t) => void (stdout += t) },
    stderr: { write: (t) => void (stderr += t) },
    env: {},
    cwd,
    ...(signal ? { signal } : {}),
  };
  return { code: await main(argv, io), stdout, stderr };
}

/** The sample plan in a folder of its own, with an approved spec where its Spec line points. */
async function sampleDir(status = "approved"): Promise<string> {
  const dir = await tempDir();
  await copyFile(sample, join(dir, "plan.md"));
  await mkdir(join(dir, "docs/specs"), { recursive: true });
  await writeFile(join(dir, "docs/specs/export-rate-limit.md"), `# Spec\n\nStatus: ${status}\n`);
  return dir;
}

describe("decay journal (main)", () => {
  it("show prints each task's state and the checklist", async () => {
    const r = await call(["journal", "show", sample], root);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toContain("Task 2: in progress - started at 9b1e44c\n");
    expect(r.stdout).toContain("- [x] Task 1: token bucket\n- [ ] Task 2: middleware (in progress)\n");
  });

  it("next prints the Next step line, in the host's form when asked", async () => {
    const dir = await sampleDir();
    expect(await call(["journal", "next", "plan.md"], dir)).toMatchObject({ code: 0, stdout: "Next step: implement - Task 2 is in progress\n" });
    const draft = await sampleDir("draft");
    expect((await call(["journal", "next", "plan.md", "--host", "claude"], draft)).stdout).toBe(
      "Next step: `/specify` - docs/specs/export-rate-limit.md is a draft, awaiting approval\n",
    );
  });

  it("resume prints the derived changes and, with --write, appends them to the plan", async () => {
    const repo = await tempRepo();
    const base = (await git(repo.dir, "rev-parse", "HEAD")).trim();
    const plan = `# Plan\n\nSpec: none\n\n## Task 1: a\n\nFiles: a.txt\n\n## Execution record\n\n\`\`\`text\nBase: ${base} Root: ${repo.dir} Branch: main\nTask 1: done - cat a.txt -> a\n\`\`\`\n`;
    await writeFile(join(repo.dir, "plan.md"), plan);
    const dry = await call(["journal", "resume", "plan.md", "--repo", "."], repo.dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Task 1: done -> pending\nRuling: Task 1 back to pending - no commit in /);
    expect(dry.stdout).toMatch(/Next step: implement - Task 1 is pending\n$/);
    expect(await readFile(join(repo.dir, "plan.md"), "utf8")).toBe(plan);
    const wet = await call(["journal", "resume", "plan.md", "--repo", ".", "--write"], repo.dir);
    expect(wet.stdout).toContain("wrote 1 state change(s) and 1 Ruling line(s) to plan.md");
    const written = await readFile(join(repo.dir, "plan.md"), "utf8");
    expect(written).toMatch(/\nTask 1: pending\nRuling: Task 1 back to pending - no commit in [^\n]+\n```\n$/);
    const again = await call(["journal", "resume", "plan.md", "--repo", "."], repo.dir);
    expect(again.stdout).toContain("plan.md: no change");
    // A plan opening with a BOM keeps it: every byte outside the lines written stays as it was.
    await writeFile(join(repo.dir, "bom.md"), `\uFEFF${plan}`);
    expect((await call(["journal", "resume", "bom.md", "--repo", ".", "--write"], repo.dir)).code).toBe(0);
    expect(await readFile(join(repo.dir, "bom.md"), "utf8")).toBe(`\uFEFF${written}`);
  });

  it("resume refuses a Base that names a blob or a tree, naming the Base, where the whole history would count as its range", async () => {
    const repo = await tempRepo();
    await repo.commit({ "b.txt": "b\n" }, "b");
    const record = (base: string) =>
      `# Plan\n\nSpec: none\n\n## Task 1: a\n\nFiles: a.txt\n\n## Execution record\n\n\`\`\`text\nBase: ${base} Root: ${repo.dir} Branch: main\nTask 1: done - cat a.txt -> a\n\`\`\`\n`;
    for (const rev of ["HEAD:b.txt", "HEAD^{tree}"]) {
      const id = (await git(repo.dir, "rev-parse", rev)).trim();
      await writeFile(join(repo.dir, "plan.md"), record(id));
      const r = await call(["journal", "resume", "plan.md", "--repo", "."], repo.dir);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toContain(`from the record's Base ${id}: is it a commit of this repository?`);
    }
  });

  it("a Task line for a task the plan does not have is refused with its line, by show, next and resume alike", async () => {
    const dir = await tempDir();
    const plan =
      "# Plan\n\nSpec: none\n\n## Task 1: a\n\nFiles: a.txt\n\n## Execution record\n\n```text\nTask 1: done - true -> ok\nTask 2: done - true -> ok\n```\n";
    await writeFile(join(dir, "plan.md"), plan);
    for (const argv of [
      ["show", "plan.md"],
      ["next", "plan.md"],
      ["resume", "plan.md", "--repo", "."],
    ]) {
      const r = await call(["journal", ...argv], dir);
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toContain("line 13");
      expect(r.stderr).toContain("Task 2 is not a task of the plan (it has Task 1)");
    }
  });

  /** A repository where Task 1's GREEN is rechecked: Task 2, done after it, changed the same file. */
  async function overlapped(green: string): Promise<{ dir: string; plan: string }> {
    const repo = await tempRepo();
    const base = await repo.commit({}, "base");
    await repo.commit({ "shared.txt": "one\n" }, "task 1");
    await repo.commit({ "shared.txt": "two\n" }, "task 2");
    const plan = `# Plan\n\nSpec: none\n\n## Task 1: a\n\nFiles: shared.txt\nGREEN: \`${green}\` -> exit 0\n\n## Task 2: b\n\nFiles: shared.txt\n\n## Execution record\n\n\`\`\`text\nBase: ${base} Root: ${repo.dir} Branch: main\nTask 1: done - sh check -> exit 0\nTask 2: done - sh check -> exit 0\n\`\`\`\n`;
    await writeFile(join(repo.dir, "plan.md"), plan);
    return { dir: repo.dir, plan };
  }

  it("resume --write refuses to write over a plan edited while its rechecks ran, and leaves the edit", async () => {
    // The recheck itself edits the plan, as a person would during a long one; then it fails, so there is a change to write.
    const { dir, plan } = await overlapped("echo edited >> plan.md; false");
    const r = await call(["journal", "resume", "plan.md", "--repo", ".", "--write"], dir);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe("decay: cannot write plan.md: it changed while the rechecks ran, so nothing was written; run resume again\n");
    expect(await readFile(join(dir, "plan.md"), "utf8")).toBe(`${plan}edited\n`);
  });

  it("an interrupt kills a recheck in flight and writes nothing: the check's failure is no verdict on its task", async () => {
    const { dir, plan } = await overlapped("echo $$ > pid.txt; exec sleep 60");
    const controller = new AbortController();
    const pending = call(["journal", "resume", "plan.md", "--repo", ".", "--write"], dir, controller.signal);
    const pidFile = join(dir, "pid.txt");
    while (!(await readFile(pidFile, "utf8").catch(() => "")).endsWith("\n")) await new Promise((ok) => setTimeout(ok, 20));
    const pid = Number(await readFile(pidFile, "utf8"));
    controller.abort();
    const r = await pending;
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toBe("decay: the run was interrupted at step journal resume, before anything was written\n");
    expect(await readFile(join(dir, "plan.md"), "utf8")).toBe(plan);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it("resume --write goes through the shared atomic writer: no temporary file left, a plan reached through a link refused and left as it was", async () => {
    const repo = await tempRepo();
    const base = (await git(repo.dir, "rev-parse", "HEAD")).trim();
    const plan = `# Plan\n\nSpec: none\n\n## Task 1: a\n\nFiles: a.txt\n\n## Execution record\n\n\`\`\`text\nBase: ${base} Root: ${repo.dir} Branch: main\nTask 1: done - cat a.txt -> a\n\`\`\`\n`;
    await mkdir(join(repo.dir, "plans"));
    await writeFile(join(repo.dir, "plans/real.md"), plan);
    await symlink("real.md", join(repo.dir, "plans/link.md"));
    const linked = await call(["journal", "resume", "plans/link.md", "--repo", ".", "--write"], repo.dir);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/link\.md.*it is a symbolic link; only a regular file is replaced/);
    expect([await readlink(join(repo.dir, "plans/link.md")), await readFile(join(repo.dir, "plans/real.md"), "utf8")]).toEqual(["real.md", plan]);
    expect((await call(["journal", "resume", "plans/real.md", "--repo", ".", "--write"], repo.dir)).code).toBe(0);
    expect((await readdir(join(repo.dir, "plans"))).sort()).toEqual(["link.md", "real.md"]);
  });

  it("faults exit 2 with a message: a malformed record line by its number, a missing file, a bad command line", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "bad.md"), "## Task 1: a\n\n## Execution record\n\n```text\nTask 1: done\n```\n");
    const bad = await call(["journal", "show", "bad.md"], dir);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toMatch(/^decay: bad.md: line 6 of the record is malformed/);
    // A lone CR hiding a line that says done: refused, never shown as done.
    const crDir = await tempDir();
    await writeFile(join(crDir, "cr.md"), "## Task 1: a\n\n## Execution record\n\n```text\nTask 1: pending\rTask 1: done - x -> y\n```\n");
    const cr = await call(["journal", "show", "cr.md"], crDir);
    expect(cr).toMatchObject({ code: 2, stdout: "" });
    expect(cr.stderr).toMatch(/^decay: cr.md: line 6 ends with a lone CR \(carriage return\)/);
    // A NUL, two BOMs, a round 0 and a round written twice: each refused with its line, never shown.
    const record = (lines: string, head = "") => `${head}## Task 1: a\n\n## Execution record\n\n\`\`\`text\n${lines}\`\`\`\n`;
    const cases = [
      ["nul.md", record("Task 1: pending\nDeferred: a\u0000b - me\n"), "line 7 holds a NUL character (U+0000)"],
      ["bom2.md", record("Task 1: pending\n", "\uFEFF\uFEFF"), "line 1: the file starts with two byte order marks (U+FEFF)"],
      ["round0.md", record("Task 1: pending\nRound task-1 0: flaky\n"), "line 7 of the record is malformed (rounds count from 1: Round <loop> 0 is no round)"],
      [
        "round2.md",
        record("Round task-1 1: flaky\nRound task-1 1: again\n"),
        "line 7 of the record is malformed (Round task-1 1 is already on line 6: each round of a loop has its own number)",
      ],
    ] as const;
    for (const [name, text, said] of cases) {
      await writeFile(join(crDir, name), text);
      const r = await call(["journal", "show", name], crDir);
      expect(r).toMatchObject({ code: 2, stdout: "" });
      expect(r.stderr).toMatch(new RegExp(`^decay: ${name}: ${said.replace(/[()+]/g, "\\$&")}`));
    }
    await writeFile(join(crDir, "bom1.md"), record("Task 1: pending\n", "\uFEFF"));
    expect(await call(["journal", "show", "bom1.md"], crDir)).toMatchObject({ code: 0, stderr: "" });
    expect((await call(["journal", "show", "missing.md"], dir)).stderr).toBe("decay: cannot read missing.md: no such file or directory\n");
    // A name holding a line break stays on the fault's one line, the break shown escaped.
    expect((await call(["journal", "show", "two\nlines.md"], dir)).stderr).toBe("decay: cannot read two\\nlines.md: no such file or directory\n");
    expect(await call(["journal", "resume", "bad.md"], dir)).toMatchObject({ code: 2, stderr: "decay: journal resume needs --repo DIR (see decay --help)\n" });
    // A --repo that is no directory is named as such, not as git failing to start.
    expect(await call(["journal", "resume", "bad.md", "--repo", "nope"], dir)).toMatchObject({
      code: 2,
      stderr: "decay: cannot read --repo nope: no such directory\n",
    });
    // The plan read from standard input cannot be written back: a usage fault, and no file named `-`.
    expect(await call(["journal", "resume", "-", "--repo", ".", "--write"], dir)).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "decay: --write needs a plan file: the plan - is read from standard input and cannot be written back (see decay --help)\n",
    });
    expect(await readdir(dir)).toEqual(["bad.md"]);
    expect(await call(["launch"], dir)).toMatchObject({
      code: 2,
      stderr: 'decay: unknown command "launch": run, preflight, verify, report, journal, worker, enqueue or runs (see decay --help)\n',
    });
    expect(await call(["journal", "next", "bad.md", "--repo", "nope"], dir)).toMatchObject({
      code: 2,
      stderr: "decay: cannot read --repo nope: no such directory\n",
    });
    // A --repo running through a file says so in words, not as a bare errno code.
    expect(await call(["journal", "next", "bad.md", "--repo", "bad.md/x"], dir)).toMatchObject({
      code: 2,
      stderr: "decay: cannot read --repo bad.md/x: a part of the path is not a directory\n",
    });
    expect(await call(["journal"], dir)).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "decay: no journal command given: show, resume or next (see decay --help)\n",
    });
  });
});

describe("decay (the built bin)", () => {
  const runBin = (args: string[], cwd: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, ...args], { cwd }, (e, stdout, stderr) => resolve({ code: e ? (e.code as number) : 0, stdout, stderr }));
    });

  it("prints the checklist and exits 0", async () => {
    const r = await runBin(["journal", "show", sample], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("- [ ] Task 4: announce the limit (pending)\n");
  });

  it("exits 2 with the line number of a malformed record line, and 2 for an unknown command", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "p.md"), "## Task 1: a\n\n## Execution record\n\n```text\nTask 1: blocked - tired\n```\n");
    const r = await runBin(["journal", "next", "p.md"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 6 of the record is malformed \(blocked must name one of the five blockers/);
    expect((await runBin(["frobnicate"], dir)).code).toBe(2);
    const pkg = JSON.parse(await readFile(join(root, "packages/executor/package.json"), "utf8")) as { version: string };
    expect((await runBin(["--version"], dir)).stdout).toBe(`decay ${pkg.version}\n`);
  });
});
