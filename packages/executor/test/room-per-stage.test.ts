// A stage's verdict is a function of its commit and its own acceptance: in a pass over several
// stages (preflight, the final verification, verifyContract), a stage runs in a room of its own
// unless the room is as it was handed over.
import { utimesSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitCloneRoom, gitWorktreeRoom } from "../src/entries/node.js";
import { type CleanRoom, runPlan, scriptTable, verifyContract } from "../src/index.js";
import { contractOf, git, makeRepo, nodeOptions, planOf, roomsDir } from "./harness.js";

/** A repository holding `files`, a plan of two stages with one acceptance row each, and the options to run it with no agent work. */
async function twoStages(files: Record<string, string>, first: string, second: string, kind: "clone" | "worktree" = "clone") {
  const repo = await makeRepo(files);
  const contract = await contractOf(
    repo,
    planOf([
      ["first", [first]],
      ["second", [second]],
    ]),
  );
  const options = () => nodeOptions(repo, scriptTable({}));
  // The rooms the verification opens, by name: the real room adapter, counted.
  const rooms: string[] = [];
  const inner = kind === "clone" ? gitCloneRoom({ repo }) : gitWorktreeRoom({ repo, dir: await roomsDir() });
  const counted: CleanRoom = { ...inner, open: (request) => (rooms.push(request.name), inner.open(request)) };
  const { agent: _agent, ...verify } = { ...options(), cleanRoom: counted };
  return { contract, options, rooms, green: async () => (await verifyContract(contract, verify))._unsafeUnwrap().green };
}

describe("one clean room per stage in a verification pass", () => {
  it("a stage whose acceptance deletes a file does not turn a later stage that needs it red", async () => {
    const t = await twoStages({ "seed.txt": "s\n" }, "`rm -f seed.txt` exits 0", "`test -f seed.txt` exits 0");
    expect(await t.green()).toEqual(["S1", "S2"]);
    expect(t.rooms).toEqual(["preflight", "preflight-S2"]);
    const report = (await runPlan(t.contract, t.options()))._unsafeUnwrap();
    expect([report.status, report.start.green, report.end.green]).toEqual(["green", ["S1", "S2"], ["S1", "S2"]]);
  });

  it("what one stage's acceptance builds cannot make a later stage green", async () => {
    const t = await twoStages({ "README.md": "r\n" }, "`mkdir -p out && touch out/built` exits 0", "`test -f out/built` exits 0");
    expect(await t.green()).toEqual(["S1"]);
  });

  it.each(["clone", "worktree"] as const)("a %s room a stage committed in, or wrote beside, is not handed to the next stage", async (kind) => {
    for (const [first, second] of [
      ["`git commit -q --allow-empty -m leak` exits 0", "`git log -1 --format=%s` exits 0 and prints `the plan`"],
      ["`touch ../leak` exits 0", "`test ! -e ../leak` exits 0"],
    ]) {
      const t = await twoStages({ "README.md": "r\n" }, first as string, second as string, kind);
      expect(await t.green()).toEqual(["S1", "S2"]);
      expect(t.rooms).toEqual(["preflight", "preflight-S2"]);
    }
  });

  it("stages whose commands leave the room as it was share it: one room for the pass", async () => {
    const t = await twoStages({ "a.txt": "a\n" }, "`cat a.txt` exits 0 and prints `a`", "`test -f a.txt` exits 0");
    expect(await t.green()).toEqual(["S1", "S2"]);
    expect(t.rooms).toEqual(["preflight"]);
  });
});

describe("a git room's unchanged()", () => {
  it("is true as handed over, and false after any write, even one that puts back the content and the mtime", async () => {
    const repo = await makeRepo({ "a.txt": "a\n" });
    // The setup gives a.txt a whole-second mtime, so the test can put it back exactly.
    const setup = { command: "touch -d @1700000000 a.txt", timeoutMs: 30_000 };
    const room = (await gitCloneRoom({ repo }).open({ commit: git(repo, "rev-parse", "HEAD"), name: "r", setup }))._unsafeUnwrap();
    try {
      expect((await room.unchanged?.())?._unsafeUnwrap()).toBe(true);
      const file = join(room.dir, "a.txt");
      writeFileSync(file, "a\n");
      utimesSync(file, 1700000000, 1700000000);
      expect(statSync(file, { bigint: true }).mtimeNs).toBe(1700000000n * 1000000000n);
      expect((await room.unchanged?.())?._unsafeUnwrap()).toBe(false);
    } finally {
      (await room.dispose())._unsafeUnwrap();
    }
  });
});
