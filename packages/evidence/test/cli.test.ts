import { execFile } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";

// Runs the built bin (the root test script builds before vitest; build by hand for a lone run).
const bin = new URL("../dist/bin.js", import.meta.url).pathname;
const run = async (args: string[], cwd: string) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env["PATH"] ?? "" } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
};

const RECORD = {
  schema: "evidence-record-v1",
  repo: "forge.test/owner/repo",
  pr: 23,
  task: "Task 9",
  attempt: "attempt-1",
  merge_sha: "0123456789abcdef0123456789abcdef01234567",
  deployment: { id: "deployment-8", version: "build-19" },
  timestamp: 100,
  checks: [{ command: "verify-deployment", result: "health checks passed" }],
  production_status: "succeeded",
  author: { id: 17, login: "owner" },
  previous_attempt: null,
};

test("the built bin hashes a record, prints a slug, and exits 2 naming the field of a bad record", async () => {
  const dir = await tempDir("decay-ev-bin-");
  writeFileSync(join(dir, "r.json"), JSON.stringify(RECORD));
  writeFileSync(join(dir, "bad.json"), JSON.stringify({ ...RECORD, merge_sha: "ABC" }));
  expect(await run(["hash", "r.json"], dir)).toEqual({
    code: 0,
    stdout:
      "content_sha256 e4cb737b845630149f77864303653ebd7b074111cc0c09a3a15c9f5c1715618d\n" +
      "key_hash 3f83717770d4f78be33f7190192b931c97d385c0f878286b12b29288508fd22c\n",
    stderr: "",
  });
  expect((await run(["slug", "/"], dir)).stdout).toBe("root-8a5edab28263\n");
  const bad = await run(["hash", "bad.json"], dir);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("invalid merge SHA (field merge_sha)");
  expect((await run(["status", "--home", "relative/home"], dir)).code).toBe(2);
});

test("slug refuses a loop of symbolic links, as the reference's Path.resolve() does, instead of naming a folder no store uses", async () => {
  const dir = await tempDir("decay-ev-bin-");
  symlinkSync("loop2", join(dir, "loop1"));
  symlinkSync("loop1", join(dir, "loop2"));
  for (const path of ["loop1", "loop1/below"]) {
    const ran = await run(["slug", path], dir);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toMatch(/^decay-evidence: cannot read .*loop1.*: symbolic links there lead round in a loop, so it resolves to no folder\n$/);
  }
  // A link to a folder still resolves to the folder's own slug.
  symlinkSync("/", join(dir, "to-root"));
  expect((await run(["slug", "to-root"], dir)).stdout).toBe("root-8a5edab28263\n");
});

test("the built bin prints '<name> <version>' and the shared usage sentences", async () => {
  const dir = await tempDir("decay-ev-bin-");
  expect((await run(["--version"], dir)).stdout).toMatch(/^decay-evidence \d+\.\d+\.\d+\n$/);
  expect(await run(["status", "--nope"], dir)).toEqual({
    code: 2,
    stdout: "",
    stderr: "decay-evidence: usage: unknown option --nope (see decay-evidence --help)\n",
  });
  expect((await run(["status", "--home", "/a", "--home", "/b"], dir)).stderr).toBe(
    "decay-evidence: usage: --home was given more than once (see decay-evidence --help)\n",
  );
});
