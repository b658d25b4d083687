// `decay journal` on a plan whose record heading a stray fence hides: exit 2 naming the fence and
// the heading, never "every task pending" (review finding 3), through the built bin.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { tempRepo } from "./git-helper.js";

const bin = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));
const PLAN =
  "# Plan: x\n\n## Task 1: a\n\nCheck: `true` -> ok\n\n## Task 2: b\n\nNotes:\n```\n\n## Execution record\n\n```text\nBase: unset\nTask 1: done - true -> ok\nTask 2: in progress - started at 9b1e44c\n```\n";

// A comment never closed between the record heading and its text block (review finding 2 of s6).
const COMMENTED =
  "# Plan\n\n## Task 1: a\n\nCheck: `true` -> ok\n\n## Task 2: b\n\nCheck: `true` -> ok\n\n## Execution record\n\n<!-- TODO: tidy these notes up\n\n```text\nBase: unset\nTask 1: done - true -> ok\nTask 2: done - true -> ok\n```\n";

let repo: string;
beforeAll(async () => {
  const made = await tempRepo();
  await made.write({ "tp.md": PLAN, "cm.md": COMMENTED });
  repo = made.dir;
});

describe("decay journal with the record heading hidden by a fence left open", () => {
  it.each([[["show", "tp.md"]], [["resume", "tp.md", "--repo", "."]], [["next", "tp.md", "--repo", "."]]])(
    "journal %j exits 2 naming the fence and the heading",
    (args) => {
      const ran = spawnSync(process.execPath, [bin, "journal", ...args], { cwd: repo, encoding: "utf8" });
      expect(ran.status).toBe(2);
      expect(ran.stdout).toBe("");
      expect(ran.stderr).toMatch(
        /^decay: tp\.md: the fenced block opened at line 10 is never closed: .* hides the heading "## Execution record" at line 12, .*\n$/,
      );
    },
  );
});

describe("decay journal with a comment left open above the record's text block", () => {
  it.each([[["show", "cm.md"]], [["resume", "cm.md", "--repo", "."]], [["next", "cm.md", "--repo", "."]]])(
    "journal %j exits 2 naming the file and the comment's line, never every task pending",
    (args) => {
      const ran = spawnSync(process.execPath, [bin, "journal", ...args], { cwd: repo, encoding: "utf8" });
      expect(ran.stdout).toBe("");
      expect(ran.stderr).toBe(
        "decay: cm.md: the HTML comment opened at line 13 is never closed (-->), so the record cannot be read or written there: close the comment\n",
      );
      expect(ran.status).toBe(2);
    },
  );
});
