// The built `decay` bin: every fault exits 2 naming its input; a green run exits 0; --help,
// --version; plain progress off a terminal; the live view on a pseudo-terminal.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileContract, readPlan, renderContract } from "@decay/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { VERSION } from "../src/cli/version.js";
import { agentFlag, BIN, cleanEnv, decay, solvedRepo } from "./cli-process.js";
import { fixtureRepo, git, makeRepo } from "./harness.js";

/** A worker's flags but its executor id, on a database nobody serves: what fails first is the flag. */
const WORKER = ["worker", "--database-url", "postgresql://u@127.0.0.1:1/none", "--app-version", "v", "--agent", "node"];

let repo: string;
beforeAll(async () => {
  repo = await fixtureRepo();
});

describe("decay: every fault exits 2 and names its input", () => {
  it.each([
    ["a missing plan", ["run", "docs/nothere.plan.md", "--agent", "node"], /docs\/nothere\.plan\.md: cannot read: no such file or directory/],
    [
      "an unreadable repository",
      ["run", "docs/stats.plan.md", "--repo", "/nonexistent/repo", "--agent", "node"],
      /--repo \/nonexistent\/repo: no such directory\n$/,
    ],
    [
      "an agent command that does not exist",
      ["run", "docs/stats.plan.md", "--agent", "no-such-agent-xyz --fast"],
      /--agent: "no-such-agent-xyz" is not a command on PATH/,
    ],
    ["an unknown flag", ["run", "docs/stats.plan.md", "--agnet", "x"], /^decay: unknown option --agnet \(see decay --help\)\n$/],
    ["a bad number", ["run", "docs/stats.plan.md", "--agent", "node", "--budget", "two"], /--budget must be a positive integer, not "two"/],
    [
      "a pattern bound that is no number of milliseconds",
      ["verify", "docs/stats.plan.md", "--pattern-timeout-ms", "0"],
      /^decay: --pattern-timeout-ms must be a positive integer, not "0" \(see decay --help\)\n$/,
    ],
    [
      "a worker's pattern bound that is no number of milliseconds",
      ["worker", "--database-url", "postgresql://db/decay", "--executor-id", "w", "--app-version", "v", "--agent", "node", "--pattern-timeout-ms", "1e3"],
      /^decay: --pattern-timeout-ms must be a positive integer, not "1e3" \(see decay --help\)\n$/,
    ],
    ["a flag of another command", ["preflight", "docs/stats.plan.md", "--agent", "node"], /--agent is not an option of decay preflight/],
    ["an unknown clean room", ["preflight", "docs/stats.plan.md", "--clean-room", "docker"], /--clean-room must be clone, worktree or isomorphic/],
    ["no command", [], /no command given/],
    [
      "a durable state directory inside the repository",
      ["run", "docs/stats.plan.md", "--agent", "node", "--durable", "src/../.state"],
      /^decay: --durable src\/\.\.\/\.state: the state directory is inside the repository; give one outside it \(see decay --help\)\n$/,
    ],
    [
      "options before journal",
      ["--include-optional", "journal", "show", "docs/stats.plan.md"],
      /\(options of decay journal go after it: decay journal \[options\]\)\n$/,
    ],
    [
      "a worker with DBOS's default executor id",
      [...WORKER, "--executor-id", "local"],
      /^decay: --executor-id must not be DBOS's default `local`: give each worker its own id \(see decay --help\)\n$/,
    ],
    [
      "a worker whose workspace is a file",
      [...WORKER, "--executor-id", "w", "--workspace", "docs/stats.plan.md"],
      /^decay: --workspace docs\/stats\.plan\.md: cannot write: /,
    ],
    [
      "a worker whose bundle directory cannot be made",
      [...WORKER, "--executor-id", "w", "--workspace", tmpdir(), "--bundle", "docs/stats.plan.md/bundles"],
      /^decay: --bundle docs\/stats\.plan\.md\/bundles: cannot write: /,
    ],
    [
      "options before a fleet command",
      ["--include-optional", "runs", "--database-url", "postgres://u@h/d"],
      /\(options of decay runs go after it: decay runs \[options\]\)\n$/,
    ],
  ])("%s", async (_name, args, message) => {
    const r = await decay(args, repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });

  it("a contract its self-check refuses", async () => {
    const plan = join(await tempDir(), "clone.plan.md");
    writeFileSync(
      plan,
      "# P\n\n## 6. Recommendation (staged)\n\n### Stage 1: fetch\n\nFetch.\n\nAcceptance: `git clone https://example.invalid/x y` exits 0\n",
    );
    const r = await decay(["preflight", plan], repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${plan}: the contract's self-check refuses to start: row S1.1 .*runs git clone`));
  });

  it("a plan that is not UTF-8, before anything runs", async () => {
    const plan = join(await tempDir(), "bad.plan.md");
    const text = "# P\n\n## 6. Recommendation (staged)\n\n### Stage 1: caf\u00e9\n\nDo.\n\nAcceptance: `true` exits 0\n";
    // Latin-1 bytes: the é is one byte 0xE9, which UTF-8 never has alone.
    writeFileSync(plan, Buffer.from(text, "latin1"));
    const r = await decay(["verify", plan], repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`decay: ${plan}: line 5: the file is not valid UTF-8: byte 0xE9 at byte offset 52 (byte 16 of the line) cannot be decoded\n`);
    expect(r.stdout).toBe("");
  });

  it("an agent found through a relative PATH entry is the working directory's, not the repository's", async () => {
    const plan = "# Plan\n\n## 6. Recommendation\n\n### Stage 1: make x\n\nCreate x.\n\nAcceptance: `test -f x` exits 0\n";
    const decoy = "#!/bin/sh\ncat >/dev/null; echo REPO-COPY-RAN >&2; exit 7\n";
    const small = await makeRepo({ "p.plan.md": plan, "tools/my-agent": decoy });
    chmodSync(join(small, "tools/my-agent"), 0o755);
    git(small, "add", "-A");
    git(small, "commit", "-q", "-m", "an executable decoy");
    const cwd = await tempDir();
    mkdirSync(join(cwd, "tools"));
    writeFileSync(join(cwd, "tools/my-agent"), '#!/bin/sh\ncat >/dev/null; echo x > x; echo \'{"tokens":1,"summary":"s"}\'\n');
    chmodSync(join(cwd, "tools/my-agent"), 0o755);
    const r = await decay(["run", join(small, "p.plan.md"), "--repo", small, "--agent", "my-agent"], cwd, cleanEnv({ PATH: `tools:${process.env.PATH}` }));
    expect(r.stderr).not.toContain("REPO-COPY-RAN");
    expect(r.code).toBe(0);
  }, 60_000);

  it("a repository with no commit yet: preflight refuses it and writes nothing", async () => {
    const empty = await tempDir();
    git(empty, "init", "-q");
    const plan = join(await tempDir(), "p.plan.md");
    writeFileSync(plan, "# P\n\n## 6. Recommendation\n\n### Stage 1: t\n\nDo.\n\nAcceptance: `true` exits 0\n");
    const r = await decay(["preflight", plan, "--repo", empty], empty);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has no commit yet/);
    expect(execFileSync("find", [empty, "-path", `${empty}/.git`, "-prune", "-o", "-print"], { encoding: "utf8" })).toBe(`${empty}\n`);
  });

  it("a contract whose plan drifted", async () => {
    const drifted = await fixtureRepo();
    const planText = readFileSync(join(drifted, "docs/stats.plan.md"), "utf8");
    const contract = (await compileContract(readPlan(planText)._unsafeUnwrap(), { planPath: "docs/stats.plan.md", planText }))._unsafeUnwrap();
    writeFileSync(join(drifted, "docs/stats.contract.md"), renderContract(contract));
    const edited = `${planText}\nOne more line.\n`;
    writeFileSync(join(drifted, "docs/stats.plan.md"), edited);
    const r = await decay(["run", "docs/stats.contract.md", "--agent", "node"], drifted);
    expect(r.code).toBe(2);
    const [recorded, now] = [planText, edited].map((t) => createHash("sha256").update(t).digest("hex"));
    expect(r.stderr).toContain(`docs/stats.contract.md: the plan docs/stats.plan.md changed under this contract (recorded sha256 ${recorded}, now ${now})`);
  });

  it("a dirty working tree is the run's fault, named", async () => {
    const dirty = await fixtureRepo();
    writeFileSync(join(dirty, "src/stats.mjs"), "// edited\n");
    const r = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag()], dirty);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/docs\/stats\.plan\.md: the working tree has uncommitted changes \(src\/stats\.mjs\)/);
  });

  it("--version and --help exit 0", async () => {
    expect(await decay(["--version"], repo)).toMatchObject({ code: 0, stdout: `decay ${VERSION}\n` });
    const help = await decay(["--help"], repo);
    expect(help.code).toBe(0);
    for (const flag of ["--repo", "--agent", "--assumptions", "--include-optional", "--budget", "--token-target", "--clean-room", "--setup", "--json"])
      expect(help.stdout).toContain(flag);
  });

  it("keeps the package version", () => {
    expect(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version).toBe(VERSION);
  });
});

describe("decay on a repository already green", () => {
  it("preflight and run exit 0; progress is one plain line per event when stdout is not a terminal", async () => {
    const green = await solvedRepo();
    const pre = await decay(["preflight", "docs/stats.plan.md"], green);
    expect(pre.code).toBe(0);
    expect(pre.stdout).toMatch(/decay preflight: at [0-9a-f]{12} green: S1, S2, S3\n$/);
    const run = await decay(["run", "docs/stats.plan.md", "--agent", agentFlag()], green);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("\u001b[");
    expect(run.stdout).toMatch(/^\[ +[0-9.]+s\] run stats on plan\/stats from [0-9a-f]{12}$/m);
    expect(run.stdout).toMatch(/^\[ +[0-9.]+s\] S2 skipped \(green-at-start\): its acceptance already passes at the start$/m);
    expect(run.stdout.trim().split("\n").at(-2)).toBe("decay: green; green: S1, S2, S3");
  });

  it("draws a live view redrawn in place on a terminal, ending with the summary line", async () => {
    const green = await solvedRepo();
    const scratch = await tempDir();
    const log = join(scratch, "tty.log");
    const wrapper = join(scratch, "tty.sh");
    writeFileSync(wrapper, `stty rows 30 cols 100\nexec ${process.execPath} ${BIN} run docs/stats.plan.md --agent '${agentFlag()}'\n`);
    chmodSync(wrapper, 0o755);
    execFileSync("script", ["-qfec", `sh ${wrapper}`, log], { cwd: green, env: cleanEnv({ TERM: "xterm" }), stdio: "ignore" });
    const screen = readFileSync(log, "utf8");
    const frames = screen.split("decay run · ").length - 1;
    expect(frames).toBeGreaterThan(1);
    // Redrawn in place: the cursor goes back up over the previous frame and erases its lines.
    expect(screen).toContain("\u001b[1A");
    expect(screen).toContain("\u001b[2K");
    expect(screen).toMatch(/ S3 +green/);
    // The summary comes after the last frame, on a line of its own.
    const plain = screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
    expect(plain.lastIndexOf("\ndecay: green; green: S1, S2, S3\nreport: ")).toBeGreaterThan(plain.lastIndexOf("decay run · "));
    expect(git(green, "branch", "--show-current")).toBe("plan/stats");
  });
});
