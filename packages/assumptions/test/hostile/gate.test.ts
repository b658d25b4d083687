// plan-decay (the built bin) against the shared hostile inputs: every one a fault (exit 2), one
// line naming the input, no stack trace, memory bounded, the temp dir as it was.
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  BINS,
  CR_ONLY,
  ENDLESS,
  INVALID_UTF8,
  MEMORY_TEST_LIMIT,
  corruptIndexRepo,
  expectFault,
  expectUnderTwiceTheLimit,
  fifo,
  git,
  gitlinkRepo,
  linkChain,
  repoWith,
  runBin,
  snapshot,
  zipBombRepo,
} from "../../../../test-utils/hostile.js";
import { bomb, declaring, garbage, repackByHand } from "../support/pack-fixture.js";
import { tempDir } from "../../../../test-utils/tmp.js";

const gate = (args: string[], cwd: string, stdin?: Parameters<typeof runBin>[2]["stdin"]) =>
  runBin(BINS.gate, args, stdin === undefined ? { cwd } : { cwd, stdin });

/** A temp dir with a tree `t/` (src/a.ts) and whatever `extra` adds; answers it and its snapshot. */
async function scene(extra: (dir: string) => void = () => undefined) {
  const dir = await tempDir("decay-hostile-gate-");
  fs.mkdirSync(join(dir, "t", "src"), { recursive: true });
  fs.writeFileSync(join(dir, "t", "src", "a.ts"), "a\n");
  extra(dir);
  return { dir, before: snapshot(dir) };
}

describe("plan-decay: inputs", () => {
  test("a plan that is a FIFO nobody writes: refused before opening", async () => {
    const { dir, before } = await scene((d) => void fifo(join(d, "plan.tsv")));
    expectFault(await gate(["--root", "t", "plan.tsv"], dir), "plan.tsv", /FIFO/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("standard input longer than the limit: refused, memory bounded", async () => {
    const { dir, before } = await scene();
    const run = await gate(["--root", "t", "--max-input-bytes", "4194304", "-"], dir, ENDLESS);
    expectFault(run, "standard input", /larger than the limit of 4194304 bytes/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("300 MiB on standard input past a 64 MiB limit: peak memory over the baseline stays under twice the limit", async () => {
    const { dir, before } = await scene();
    await expectUnderTwiceTheLimit(BINS.gate, ["--root", "t", "--max-input-bytes", String(MEMORY_TEST_LIMIT), "-"], { cwd: dir });
    expect(snapshot(dir)).toEqual(before);
  });

  test("the same with --json: a fault object on stdout", async () => {
    const { dir } = await scene();
    const run = await gate(["--root", "t", "--json", "--max-input-bytes", "4194304", "-"], dir, ENDLESS);
    expectFault(run, "standard input");
    expect(JSON.parse(run.stdout)).toMatchObject({ fault: { code: "input-unreadable" } });
  });

  test("/dev/zero as the plan (where it exists): refused, never read", async () => {
    if (!fs.existsSync("/dev/zero")) return;
    const { dir } = await scene();
    expectFault(await gate(["--root", "t", "/dev/zero"], dir), "/dev/zero", /character device/);
  });

  test("CR-only line endings and invalid UTF-8: named", async () => {
    const { dir, before } = await scene((d) => {
      fs.writeFileSync(join(d, "cr.tsv"), CR_ONLY);
      fs.writeFileSync(join(d, "bad.tsv"), INVALID_UTF8);
    });
    expectFault(await gate(["--root", "t", "cr.tsv"], dir), "line 1", /line endings are CR only; convert to LF or CRLF/);
    expectFault(await gate(["--root", "t", "bad.tsv"], dir), "line 2", /not valid UTF-8: the bytes C0 cannot be decoded/);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("plan-decay author -o: never over something that is not a regular file", () => {
  test.each([
    ["a FIFO", (d: string) => void fifo(join(d, "out"))],
    ["a symbolic link", (d: string) => fs.symlinkSync("t/src/a.ts", join(d, "out"))],
    ["a directory", (d: string) => fs.mkdirSync(join(d, "out"))],
  ])("-o over %s: a fault naming it, the target untouched", async (what, make) => {
    const { dir, before } = await scene(make);
    expectFault(await gate(["author", "--root", "t", "--creates", "src/b.ts", "-o", "out"], dir), "out", new RegExp(`it is ${what.replace("(", "\\(")}`));
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("plan-decay --ref: the object store", () => {
  async function repoScene(build: (repo: string) => void, plan: string) {
    const dir = await tempDir("decay-hostile-git-");
    build(join(dir, "r"));
    fs.writeFileSync(join(dir, "plan.tsv"), plan);
    return { dir, before: snapshot(dir) };
  }

  test("a pack index whose fan-out declares 0x0fffffff objects: a fault naming the index", async () => {
    let idx = "";
    const { dir, before } = await repoScene((r) => void (idx = corruptIndexRepo(r)), "exists\tsrc/a.ts\n");
    expectFault(await gate(["--root", "r", "--ref", "HEAD", "plan.tsv"], dir), idx, /fan-out table declares 268435455 objects/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("a zlib-bomb blob: stopped at its declared size, a fault naming the object", async () => {
    let oid = "";
    const { dir, before } = await repoScene((r) => void (oid = zipBombRepo(r)), "contains\tsrc/a.ts\ta\n");
    expectFault(await gate(["--root", "r", "--ref", "HEAD", "plan.tsv"], dir), oid, /inflates past the 10 bytes its header declares/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("a gitlink: a submodule fault, not a verdict", async () => {
    const { dir } = await repoScene(gitlinkRepo, "absent\tvendor/lib/x\n");
    expectFault(await gate(["--root", "r", "--ref", "HEAD", "plan.tsv"], dir), "vendor/lib", /git submodule/);
  });

  test.each([
    ["a zlib bomb (80 MiB behind a 200-byte header)", bomb(80 * 1024 * 1024), /inflates past the \d+ bytes it declares/],
    ["an entry declaring 200 MiB", declaring(200 * 1024 * 1024), /declares 209715200 bytes, over the limit of 67108864/],
    ["an entry that is not zlib", garbage, /is corrupt/],
  ])("--ref through a packed commit and annotated tag, each %s: a fault naming the object", async (_, lie, words) => {
    for (const ref of ["HEAD", "v1"]) {
      let oid = "";
      const { dir, before } = await repoScene((r) => {
        repoWith(r, { "src/a.ts": "a\n" });
        git(r, "tag", "-a", "-m", "release", "v1");
        oid = git(r, "rev-parse", ref);
        repackByHand(r, { [oid]: lie });
      }, "exists\tsrc/a.ts\n");
      expectFault(await gate(["--root", "r", "--ref", ref, "plan.tsv"], dir), oid, words);
      expect(snapshot(dir)).toEqual(before);
    }
  });

  test("a FIFO in .git: refused, never opened", async () => {
    const { dir } = await repoScene((r) => {
      repoWith(r, { "src/a.ts": "a\n" });
      fs.rmSync(join(r, ".git", "refs", "heads", "main"));
      fifo(join(r, ".git", "refs", "heads", "main"));
    }, "exists\tsrc/a.ts\n");
    expectFault(await gate(["--root", "r", "--ref", "HEAD", "plan.tsv"], dir), "refs/heads/main", /not a regular file/);
  });
});

describe("plan-decay: trees", () => {
  test("41 links through d -> .: a loop, as the kernel says ELOOP", async () => {
    const dir = await tempDir("decay-hostile-links-");
    fs.mkdirSync(join(dir, "t"));
    const path = linkChain(join(dir, "t"), 41);
    fs.writeFileSync(join(dir, "plan.tsv"), `absent\t${path}\n`);
    expectFault(await gate(["--root", "t", "plan.tsv"], dir), "line 1", /symbolic link .* loops/);
  });
});
