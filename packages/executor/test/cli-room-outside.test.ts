// A clean room lies outside the repository: an ignored `node_modules` of the working tree must not
// decide a verdict through Node's upward module resolution. `decay verify` and `decay run` (the
// built bin) with every room kind, rooms made in a private $TMPDIR that is empty afterwards.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { cleanEnv, decay, EDIT_AGENT } from "./cli-process.js";
import { git, makeRepo, writeFiles } from "./harness.js";

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

/** A private temp directory for the rooms of one command, outside the repository. */
async function roomsDir(): Promise<string> {
  const dir = join(await tempDir("decay-rooms-"), "tmp");
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

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
      expect(readFileSync(join(repo, ".plan-runs/lib/ledger/final-S1.md"), "utf8")).toContain("Cannot find package 'helper'");
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

  it("a $TMPDIR inside the repository is refused before any room is made", async () => {
    const repo = await leakyRepo();
    mkdirSync(join(repo, "node_modules/.tmp"));
    const r = await decay(["verify", "docs/lib.plan.md"], repo, cleanEnv({ TMPDIR: join(repo, "node_modules/.tmp"), CI: "1" }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is inside the repository");
    expect(readdirSync(join(repo, "node_modules/.tmp"))).toEqual([]);
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
});
