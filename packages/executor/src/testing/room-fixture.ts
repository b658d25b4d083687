// The repository the clean-room contract runs against, made with the system git in a temp dir.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * A repository with two commits and a dirty working tree, and beside it (outside the repository)
 * a private directory for rooms.
 */
export interface RoomFixture {
  readonly repo: string;
  /** The first commit: files, an executable, links, `.gitignore`. */
  readonly first: string;
  /** The second commit: adds `later.txt`. */
  readonly second: string;
  /** An empty directory outside the repository, for adapters' `dir` option. */
  readonly rooms: string;
  /** Removes the repository, the rooms directory and everything under them. */
  remove(): void;
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "decay contract",
  GIT_AUTHOR_EMAIL: "contract@decay.invalid",
  GIT_COMMITTER_NAME: "decay contract",
  GIT_COMMITTER_EMAIL: "contract@decay.invalid",
};

/** Runs the system git in `dir` (test fixtures only) and returns its trimmed output. */
export function fixtureGit(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-C", dir, ...args], { env: GIT_ENV, encoding: "utf8" }).trim();
}

function put(root: string, path: string, body: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), body);
}

/** The committed content of the first commit, by path. */
export const FIRST_FILES: Readonly<Record<string, string>> = {
  ".gitignore": ".plan-runs/\nnode_modules/\n",
  "uses-helper.mjs": 'import { f } from "helper";\nconsole.log(f());\n',
  "a.txt": "alpha\n",
  "dir/b.txt": "bravo\n",
  "bin/run.sh": "#!/bin/sh\necho run\n",
};

/** The links of the first commit: path → target. */
export const FIRST_LINKS: Readonly<Record<string, string>> = { "link-to-a": "a.txt", "dir/up": "../a.txt", dangling: "nowhere/x" };

/** The ignored package in the working tree that `uses-helper.mjs` imports: no room may reach it. */
export const IGNORED_HELPER: Readonly<Record<string, string>> = {
  "node_modules/helper/package.json": '{"name":"helper","type":"module","main":"index.js"}\n',
  "node_modules/helper/index.js": "export const f = () => 42;\n",
};

/**
 * Makes the contract's repository: commit one, commit two, then a working tree with an uncommitted
 * change to `a.txt`, an untracked `untracked.txt` and an ignored `node_modules/helper` (which
 * `uses-helper.mjs` imports), none of which any room may see or reach.
 */
export function makeRoomFixture(): RoomFixture {
  const top = mkdtempSync(join(tmpdir(), "decay-fixture-"));
  const repo = join(top, "repo");
  const rooms = join(top, "rooms");
  mkdirSync(repo);
  mkdirSync(rooms, { mode: 0o700 });
  fixtureGit(repo, "init", "-q", "-b", "main");
  for (const [path, body] of Object.entries(FIRST_FILES)) put(repo, path, body);
  chmodSync(join(repo, "bin/run.sh"), 0o755);
  for (const [path, target] of Object.entries(FIRST_LINKS)) symlinkSync(target, join(repo, path));
  fixtureGit(repo, "add", "-A");
  fixtureGit(repo, "commit", "-q", "-m", "first");
  const first = fixtureGit(repo, "rev-parse", "HEAD");
  put(repo, "later.txt", "later\n");
  fixtureGit(repo, "add", "-A");
  fixtureGit(repo, "commit", "-q", "-m", "second");
  const second = fixtureGit(repo, "rev-parse", "HEAD");
  put(repo, "a.txt", "uncommitted\n");
  put(repo, "untracked.txt", "untracked\n");
  for (const [path, body] of Object.entries(IGNORED_HELPER)) put(repo, path, body);
  return { repo, first, second, rooms, remove: () => rmSync(top, { recursive: true, force: true }) };
}

/** The worktrees git has registered for the repository (the main one included). */
export function worktrees(repo: string): string[] {
  return fixtureGit(repo, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree "));
}
