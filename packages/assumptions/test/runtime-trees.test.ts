import { execFileSync } from "node:child_process";
import { chmod, cp, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { cli, REPO } from "./run-cli.js";

// Trees git cannot store (FIFOs, empty directories, unreadable directories, two names that are
// one after NFC, links out of the root) and git refs, built at test time, run through the built CLI.

const PLAN = `${REPO}fixtures/gate/batch-plan.assumptions.tsv`;

/** A temp copy of a gate fixture tree, plus a place for plans beside it. */
async function copyOf(fixture: string): Promise<{ dir: string; tree: string }> {
  const dir = await tempDir("plan-decay-cli-");
  const tree = join(dir, "tree");
  await cp(`${REPO}fixtures/gate/${fixture}`, tree, { recursive: true });
  return { dir, tree };
}

async function plan(dir: string, rows: string): Promise<string> {
  const path = join(dir, "plan.tsv");
  await writeFile(path, rows);
  return path;
}

function hasSetpriv(): boolean {
  try {
    execFileSync("setpriv", ["--version"], { stdio: "ignore" });
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
}

describe("trees built at test time", () => {
  test("a FIFO where a file is needed is a fault, never a blocking read; exists judges the entry", async () => {
    const { dir, tree } = await copyOf("plan-holds");
    execFileSync("mkfifo", [join(tree, "src", "pipe.ts")]);
    expect((await cli(["--root", tree, await plan(dir, "contains\tsrc/pipe.ts\texport\n")])).status).toBe(2);
    expect((await cli(["--root", tree, await plan(dir, "exists\tsrc/pipe.ts\n")])).status).toBe(0);
  });

  test("an empty directory exists as a directory and holds nothing", async () => {
    const { dir, tree } = await copyOf("plan-holds");
    await mkdir(join(tree, "empty"));
    const r = await cli(["--root", tree, await plan(dir, "exists\tempty/\nabsent\tempty/anything.ts\n")]);
    expect(r.status).toBe(0);
    const file = await cli(["--root", tree, await plan(dir, "exists\tsrc/payments.ts/\n")]);
    expect(file.status).toBe(1);
  });

  test("two entries that are one name after NFC: the gate will not guess (exit 2)", async () => {
    const { dir, tree } = await copyOf("plan-holds");
    await writeFile(join(tree, "src", "café.ts".normalize("NFC")), "export {};\n");
    await writeFile(join(tree, "src", "café.ts".normalize("NFD")), "export {};\n");
    const r = await cli(["--root", tree, await plan(dir, "absent\tsrc/café.ts\n")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
  });

  test("a symbolic link out of the root is a fault naming the link", async () => {
    const { dir, tree } = await copyOf("plan-holds");
    await symlink("/etc/hostname", join(tree, "src", "host.ts"));
    const r = await cli(["--root", tree, await plan(dir, "lacks\tsrc/host.ts\tsecret\n")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/src\/host\.ts/);
  });
});

describe("--ref reads a commit, not the working files", () => {
  test("the committed tree holds while the moved working tree diverges", async () => {
    const { tree } = await copyOf("plan-holds");
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], {
        cwd: tree,
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
        stdio: "ignore",
      });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "plan written against this");
    await cp(`${REPO}fixtures/gate/plan-decayed`, tree, { recursive: true, force: true });
    expect((await cli(["--root", tree, PLAN])).status).toBe(1);
    const atHead = await cli(["--root", tree, "--ref", "HEAD", PLAN]);
    expect(atHead.status, atHead.stderr).toBe(0);
    // ROOT in the count line is --root exactly as given, with --ref too.
    expect(atHead.stdout).toContain(`\nCHECKED 6 assumption(s) against ${tree} - 6 held, 0 diverged\n`);
    expect((await cli(["--root", tree, "--ref", "no-such-branch", PLAN])).status).toBe(2);
  });
});

// Root reads anything through CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH, so as root the CLI runs
// with those two dropped from its bounding set: permissions then bind it, while it keeps root's
// uid and so still reads the checkout wherever it lies (a clone under a 0700 directory included).
// A non-root user is bound by permissions already and needs no wrapper.
const unprivileged = process.getuid?.() === 0 ? ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] : [];

describe.skipIf(process.getuid?.() === 0 && !hasSetpriv())("an unreadable directory, the CLI run without the power to bypass permissions", () => {
  test("readable: the plan holds under the same restriction (so the next failure is the directory's)", async () => {
    const { tree } = await copyOf("plan-holds");
    const r = await cli(["--root", tree, PLAN], { wrap: unprivileged });
    expect(r.status, r.stderr).toBe(0);
  });

  test("src/ unreadable: a fault (exit 2), never a verdict", async () => {
    const { tree } = await copyOf("plan-holds");
    await chmod(join(tree, "src"), 0o000);
    const r = await cli(["--root", tree, PLAN], { wrap: unprivileged });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: .*(EACCES|permission)/i);
    await chmod(join(tree, "src"), 0o755);
  });

  test("the root unreadable (mode 000): the run's fault, with no line number, before the plan is read", async () => {
    const { dir, tree } = await copyOf("plan-holds");
    await chmod(tree, 0o000);
    const rows = await plan(dir, "exists\tsrc/\nexists\tsrc/payments.ts\nabsent\tgone.ts\n");
    const r = await cli(["--root", tree, "--json", rows], { wrap: unprivileged });
    const missing = await cli(["--root", tree, "--json", join(dir, "no-plan.tsv")], { wrap: unprivileged });
    await chmod(tree, 0o755);
    expect([r.status, r.stderr]).toEqual([2, "error: cannot read the tree root: permission denied (EACCES)\n"]);
    expect(JSON.parse(r.stdout).fault).toEqual({ code: "tree-io", message: "cannot read the tree root: permission denied (EACCES)" });
    expect(JSON.parse(missing.stdout).fault.code).toBe("tree-io");
  });
});
