// A clean room lies outside the repository: an ignored `node_modules` of the working tree must not
// decide a verdict through Node's upward module resolution. `decay verify` and `decay run` (the
// built bin) with every room kind, rooms made in a private $TMPDIR that is empty afterwards.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { cleanEnv, decay, EDIT_AGENT } from "./cli-process.js";
import { git, makeRepo, roomsDir, squatSpares, writeFiles } from "./harness.js";

const PLAN = `# Plan: x

## 6. Recommendation (staged)

### Stage 1: answer

Export answer().

Acceptance: \`node test/answer.test.mjs\` exits 0 and prints \`answer ok\`
`;

const TEST = `import { answer } from "../src/answer.mjs";
if (answer() !== 42) process.exit(1);
console.log("answer ok");
`;

const USES_HELPER = 'import { f } from "helper";\nexport function answer() { return f(); }\n';

/** The package only the working tree has: ignored, never committed. */
const HELPER = {
  "node_modules/helper/package.json": '{"name":"helper","type":"module","main":"index.js"}\n',
  "node_modules/helper/index.js": "export const f = () => 42;\n",
};

/** A repository whose HEAD imports `helper`, which only the working tree's ignored node_modules holds. */
async function leakyRepo(): Promise<string> {
  const repo = await makeRepo({ "docs/lib.plan.md": PLAN, "test/answer.test.mjs": TEST, "src/answer.mjs": USES_HELPER, ".gitignore": "node_modules/\n" });
  writeFiles(repo, HELPER);
  // In the working tree the acceptance passes: only the commit's files must decide.
  expect(execFileSync(process.execPath, ["test/answer.test.mjs"], { cwd: repo, encoding: "utf8" })).toBe("answer ok\n");
  return repo;
}

/** The lines of `decay: warning: …` in `stderr`. */
const warnings = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("decay: warning: "));

/** What a command left in its temp directory, spares (kept on purpose) aside. */
const leftIn = (dir: string) => readdirSync(dir).filter((n) => !n.startsWith("decay-spares-"));

describe("clean rooms lie outside the repository", () => {
  it.each(["clone", "worktree", "isomorphic"])(
    "decay verify --clean-room %s: red when only the working tree's ignored node_modules made it pass",
    async (kind) => {
      const repo = await leakyRepo();
      const tmp = await roomsDir();
      const r = await decay(["verify", "docs/lib.plan.md", "--clean-room", kind, "--json"], repo, cleanEnv({ TMPDIR: tmp, CI: "1" }));
      expect(r.code, r.stderr).toBe(1);
      // The ledger keeps the acceptance's stderr: it failed for want of the package.
      expect(readFileSync(join(repo, JSON.parse(r.stdout).stages.S1.ledger), "utf8")).toContain("Cannot find package 'helper'");
      expect(leftIn(tmp)).toEqual([]);
      expect(execFileSync("find", [repo, "-name", "clones", "-o", "-name", "decay-rooms"], { encoding: "utf8" })).toBe("");
    },
  );

  it.each(["clone", "worktree", "isomorphic"])("decay verify --clean-room %s: green once the commit holds the package itself", async (kind) => {
    const repo = await leakyRepo();
    git(repo, "add", "-f", "node_modules");
    git(repo, "commit", "-qm", "vendor helper");
    const tmp = await roomsDir();
    const r = await decay(["verify", "docs/lib.plan.md", "--clean-room", kind], repo, cleanEnv({ TMPDIR: tmp, CI: "1" }));
    expect(r.code, r.stderr).toBe(0);
    expect(leftIn(tmp)).toEqual([]);
  });

  it("a setup that fails is a fault and leaves no room behind", async () => {
    const repo = await leakyRepo();
    const tmp = await roomsDir();
    const r = await decay(["verify", "docs/lib.plan.md", "--setup", "exit 3"], repo, cleanEnv({ TMPDIR: tmp, CI: "1" }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("exit 3");
    expect(leftIn(tmp)).toEqual([]);
  });

  it.each(["clone", "worktree", "isomorphic"])(
    "decay verify --clean-room %s: a $TMPDIR inside the repository is refused before any room is made",
    async (kind) => {
      const repo = await leakyRepo();
      mkdirSync(join(repo, "node_modules/.tmp"));
      const r = await decay(["verify", "docs/lib.plan.md", "--clean-room", kind], repo, cleanEnv({ TMPDIR: join(repo, "node_modules/.tmp"), CI: "1" }));
      expect(r.code).toBe(2);
      // The user set $TMPDIR, not the adapter's `dir` option: the message names what they set.
      expect(r.stderr).toContain(`docs/lib.plan.md: $TMPDIR: ${join(realpathSync(repo), "node_modules/.tmp")} is inside the repository`);
      expect(r.stderr).not.toContain("option dir");
      expect(readdirSync(join(repo, "node_modules/.tmp"))).toEqual([]);
    },
  );

  it("decay run with a $TMPDIR inside the repository is refused before it switches branch, commits or writes", async () => {
    const repo = await leakyRepo();
    mkdirSync(join(repo, "node_modules/.tmp"));
    const before = { branch: git(repo, "branch", "--show-current"), head: git(repo, "rev-parse", "HEAD"), branches: git(repo, "branch", "--list") };
    const r = await decay(["run", "docs/lib.plan.md", "--agent", "true"], repo, cleanEnv({ TMPDIR: join(repo, "node_modules/.tmp"), CI: "1" }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("$TMPDIR: ");
    expect({ branch: git(repo, "branch", "--show-current"), head: git(repo, "rev-parse", "HEAD"), branches: git(repo, "branch", "--list") }).toEqual(before);
    expect(existsSync(join(repo, ".plan-runs"))).toBe(false);
  });

  it("decay verify --clean-room worktree: a spares directory in $TMPDIR someone else made first is never used and never stops the run", async () => {
    const repo = await leakyRepo();
    const tmp = await roomsDir();
    const squat = squatSpares(tmp);
    const r = await decay(["verify", "docs/lib.plan.md", "--clean-room", "worktree"], repo, cleanEnv({ TMPDIR: tmp, CI: "1" }));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain("S1 red");
    expect(warnings(r.stderr)).toEqual([
      `decay: warning: ${squat.dir} cannot hold spare worktree rooms: ${squat.why}; each worktree room is checked out afresh instead; to keep spares, set $TMPDIR to a directory of your own`,
    ]);
    expect(readdirSync(squat.dir)).toEqual([]);
    expect(leftIn(tmp)).toEqual([]);
    expect(git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("decay run does not report green from the working tree's node_modules, and leaves no room behind", async () => {
    const repo = await makeRepo({
      "docs/lib.plan.md": PLAN,
      "test/answer.test.mjs": TEST,
      "src/answer.mjs": "export function answer() { return 0; }\n",
      ".gitignore": "node_modules/\n",
    });
    const script = join(await tempDir("decay-script-"), "script.json");
    writeFileSync(script, JSON.stringify({ "S1 execute": { edit: { "src/answer.mjs": USES_HELPER, ...HELPER } } }));
    const tmp = await roomsDir();
    const r = await decay(["run", "docs/lib.plan.md", "--agent", `${process.execPath} ${EDIT_AGENT} ${script}`], repo, cleanEnv({ TMPDIR: tmp, CI: "1" }));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(leftIn(tmp)).toEqual([]);
  });

  it("decay run --json --clean-room worktree: a squatted spares directory is one warning on stderr; stdout stays NDJSON", async () => {
    const repo = await makeRepo({ "docs/lib.plan.md": PLAN, "test/answer.test.mjs": TEST, "src/answer.mjs": "export function answer() { return 0; }\n" });
    const script = join(await tempDir("decay-script-"), "script.json");
    writeFileSync(script, JSON.stringify({ "S1 execute": { edit: { "src/answer.mjs": "export function answer() { return 42; }\n" } } }));
    const tmp = await roomsDir();
    const squat = squatSpares(tmp);
    const agent = `${process.execPath} ${EDIT_AGENT} ${script}`;
    const r = await decay(["run", "docs/lib.plan.md", "--clean-room", "worktree", "--json", "--agent", agent], repo, cleanEnv({ TMPDIR: tmp, CI: "1" }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // The same line as `decay verify` says (one writer of warnings for both).
    expect(warnings(r.stderr)).toEqual([
      `decay: warning: ${squat.dir} cannot hold spare worktree rooms: ${squat.why}; each worktree room is checked out afresh instead; to keep spares, set $TMPDIR to a directory of your own`,
    ]);
    for (const line of r.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expect(readdirSync(squat.dir)).toEqual([]);
    expect(leftIn(tmp)).toEqual([]);
  });
});
