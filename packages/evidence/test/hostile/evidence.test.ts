// decay-evidence (the built bin) against the shared hostile inputs: every one a fault (exit 2),
// one line naming the input, no stack trace, memory bounded, the temp dir as it was.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BINS, ENDLESS, MEMORY_TEST_LIMIT, expectFault, expectUnderTwiceTheLimit, fifo, runBin, snapshot } from "../../../../test-utils/hostile.js";
import { MEMORY_BOUND_KIB } from "../../../../test-utils/hostile.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { startTestServer } from "../../src/testing/test-server.js";
import { nodePendingStore } from "../../src/node/store.js";
import { prepare } from "../../src/publish/prepare.js";
import { parseRecordJson } from "../../src/record/validate.js";

const RECORD = `{"schema":"evidence-record-v1","repo":"forge.test/owner/repo","pr":23,"task":"Task 9","attempt":"attempt-1",
"merge_sha":"0123456789abcdef0123456789abcdef01234567","deployment":{"id":"deployment-8","version":"build-19"},"timestamp":100,
"checks":[{"command":"verify-deployment","result":"health checks passed"}],"production_status":"succeeded",
"author":{"id":17,"login":"owner"},"previous_attempt":null}`;

const evidence = (args: string[], cwd: string, stdin?: Parameters<typeof runBin>[2]["stdin"]) =>
  runBin(BINS.evidence, args, stdin === undefined ? { cwd } : { cwd, stdin });

/** A git checkout `repo/` inside a temp dir that is also HOME (so the store stays inside it). */
async function scene(extra: (repo: string) => void = () => undefined) {
  const dir = await tempDir("decay-hostile-evidence-");
  const repo = join(dir, "repo");
  fs.mkdirSync(repo);
  execFileSync("git", ["init", "-q", repo], { env: { PATH: process.env["PATH"] ?? "", GIT_CONFIG_NOSYSTEM: "1", HOME: dir } });
  fs.writeFileSync(join(repo, "r.json"), RECORD);
  extra(repo);
  return { dir, repo, before: snapshot(dir) };
}

/** `decay-evidence status --home dir` in `repo`, in a shell that first lowers its open-file limit to 200. */
function statusWithin200Descriptors(dir: string, repo: string) {
  return spawnSync("sh", ["-c", 'ulimit -n 200 && exec "$0" "$@"', process.execPath, BINS.evidence, "status", "--home", dir], {
    cwd: repo,
    env: { PATH: process.env["PATH"] ?? "", HOME: dir },
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("decay-evidence: inputs", () => {
  test("a record that is a FIFO: refused before opening, by hash and by prepare", async () => {
    const { dir, repo, before } = await scene((r) => void fifo(join(r, "pipe.json")));
    for (const argv of [["hash"], ["prepare", "--home", dir]]) {
      expectFault(await evidence([...argv, "pipe.json"], repo), "pipe.json", /FIFO/);
    }
    expect(snapshot(dir)).toEqual(before);
  });

  test("standard input longer than the limit: refused, memory bounded", async () => {
    const { dir, repo, before } = await scene();
    expectFault(await evidence(["hash", "-", "--max-input-bytes", "4194304"], repo, ENDLESS), "standard input", /larger than the limit/);
    expect(snapshot(dir)).toEqual(before);
  });

  test("300 MiB on standard input past a 64 MiB limit: peak memory over the baseline stays under twice the limit (hash, prepare)", async () => {
    const { dir, repo, before } = await scene();
    for (const argv of [["hash"], ["prepare", "--home", dir]]) {
      await expectUnderTwiceTheLimit(BINS.evidence, [...argv, "-", "--max-input-bytes", String(MEMORY_TEST_LIMIT)], { cwd: repo });
    }
    expect(snapshot(dir)).toEqual(before);
  });

  test("/dev/zero (where it exists): refused, never read", async () => {
    if (!fs.existsSync("/dev/zero")) return;
    const { repo } = await scene();
    expectFault(await evidence(["hash", "/dev/zero"], repo), "/dev/zero", /character device/);
  });

  test("invalid UTF-8 and a BOM in a record: named", async () => {
    const { repo } = await scene((r) => {
      fs.writeFileSync(join(r, "bad.json"), Buffer.concat([Buffer.from(RECORD.slice(0, 40)), Buffer.from([0xff]), Buffer.from(RECORD.slice(40))]));
      fs.writeFileSync(join(r, "bom.json"), `\uFEFF${RECORD}`);
    });
    expectFault(await evidence(["hash", "bad.json"], repo), "bad.json", /not valid UTF-8/);
    expectFault(await evidence(["hash", "bom.json"], repo), "bom.json", /byte order mark/);
  });

  test("an envelope that is a FIFO: publish and prepare refuse it (exit 2), status lists it unreadable (exit 1); none opens it", async () => {
    const { dir, repo } = await scene();
    const prepared = await evidence(["prepare", "r.json", "--home", dir], repo);
    expect(prepared.status).toBe(0);
    const path = prepared.stdout.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    fs.rmSync(path);
    fifo(path);
    const before = snapshot(dir);
    const run = await runBin(BINS.evidence, ["publish", path, "--home", dir, "--github", "owner/repo", "--api-url", "http://127.0.0.1:9"], {
      cwd: repo,
      env: { GITHUB_TOKEN: "tok" },
    });
    expectFault(run, path, /a FIFO, socket or device, not a regular file/);
    expectFault(await evidence(["prepare", "r.json", "--home", dir], repo), path, /a FIFO, socket or device, not a regular file/);
    const status = await evidence(["status", "--home", dir], repo);
    expect([status.status, status.stdout]).toEqual([1, expect.stringContaining(`unreadable ${path}`)]);
    expect(snapshot(dir)).toEqual(before);
  });

  test("a 300 MiB snapshot past --max-input-bytes: status calls it corrupt and prepare restores it, neither reading it whole", async () => {
    const { dir, repo } = await scene();
    const prepared = await evidence(["prepare", "r.json", "--home", dir], repo);
    const path = prepared.stdout.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const root = path.slice(0, path.lastIndexOf("/"));
    const name = fs.readdirSync(root).find((n) => n.startsWith("snapshot-")) ?? "";
    const intact = fs.readFileSync(join(root, name));
    fs.truncateSync(join(root, name), 300 * 1024 * 1024);
    const status = await evidence(["status", "--home", dir, "--max-input-bytes", "1000"], repo);
    expect([status.status, status.stdout]).toEqual([1, expect.stringMatching(/ snapshot corrupt\n/)]);
    expect(status.maxRssKiB).toBeLessThan(MEMORY_BOUND_KIB);
    const again = await evidence(["prepare", "r.json", "--home", dir, "--max-input-bytes", "1000"], repo);
    expect([again.status, again.stderr]).toEqual([0, ""]);
    expect(again.maxRssKiB).toBeLessThan(MEMORY_BOUND_KIB);
    expect(fs.readFileSync(join(root, name))).toEqual(intact);
  });

  test("an invalid --api-url: refused before any request, saying why", async () => {
    const { dir, repo } = await scene();
    const run = await runBin(BINS.evidence, ["publish", "x.json", "--home", dir, "--github", "owner/repo", "--api-url", "ftp://x"], {
      cwd: repo,
      env: { GITHUB_TOKEN: "tok" },
    });
    expectFault(run, "ftp://x", /its scheme is ftp, not https or http/);
  });

  test("a server answering 1 GiB: publish stays pending (exit 1), reads at most the 64 MiB reply bound, publishes on the next run", async () => {
    const { dir, repo } = await scene();
    const prepared = await evidence(["prepare", "r.json", "--home", dir], repo);
    const path = prepared.stdout.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const hash = (await evidence(["hash", "r.json"], repo)).stdout.split("\n")[0]?.replace("content_sha256 ", "") ?? "";
    const server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { tok: { author: { id: 17n, login: "owner" } } } });
    try {
      const publish = () =>
        runBin(
          BINS.evidence,
          ["publish", path, "--home", dir, "--github", "owner/repo", "--allow-publish", "--content-sha256", hash, "--api-url", server.baseUrl],
          {
            cwd: repo,
            env: { GITHUB_TOKEN: "tok" },
          },
        );
      server.inject("GET", { kind: "flood", bytes: 1024 * 1024 * 1024 });
      const flooded = await publish();
      expect([flooded.status, flooded.stdout, flooded.stderr]).toEqual([
        1,
        `evidence-pending ${path}\nreason transport-unavailable: the transport is unavailable: GET /user: HTTP 200 with a reply longer than 67108864 bytes, not read past that\n`,
        "",
      ]);
      const again = await publish();
      expect([again.status, again.stdout]).toEqual([0, expect.stringMatching(/^published https:\/\/forge\.test\/owner\/repo\/pull\/23#issuecomment-/)]);
      expect(server.comments.size).toBe(1);
      // The flood's peak over a run that met none: under twice the 64 MiB bound on one reply.
      expect(flooded.maxRssKiB - again.maxRssKiB).toBeLessThan((2 * 64 * 1024 * 1024) / 1024);
    } finally {
      await server.close();
    }
  });

  test("six prepare processes at once, one attempt, six contents: each saved or refused on the lock, none lost", async () => {
    const { dir, repo } = await scene();
    const files = Array.from({ length: 6 }, (_, i) => {
      fs.writeFileSync(join(repo, `r${i}.json`), RECORD.replace("health checks passed", `run ${i}`));
      return `r${i}.json`;
    });
    const hashes = await Promise.all(files.map(async (f) => (await evidence(["hash", f], repo)).stdout.split("\n")[0]?.replace("content_sha256 ", "")));
    const runs = await Promise.all(files.map((f) => evidence(["prepare", f, "--home", dir], repo)));
    const saved = hashes.filter((_, i) => runs[i]?.status === 0);
    for (const r of runs.filter((x) => x.status !== 0)) {
      expect([r.status, r.stderr]).toEqual([
        2,
        expect.stringMatching(/\.lock is locked by process \d+ on .+: a prepare or publish of this attempt is running; try again when it ends\n$/),
      ]);
    }
    expect(saved.length).toBeGreaterThan(0);
    const path =
      runs
        .find((r) => r.status === 0)
        ?.stdout.split("\n")[0]
        ?.replace("evidence-pending ", "") ?? "";
    const envelope = JSON.parse(fs.readFileSync(path, "utf8")) as { record: { content_sha256: string; history: string[] } };
    expect([...envelope.record.history, envelope.record.content_sha256].sort()).toEqual([...saved].sort());
    const status = await evidence(["status", "--home", dir], repo);
    expect([status.status, status.stdout.match(/^evidence-pending /gm)?.length, status.stdout.includes("unreadable")]).toEqual([1, 1, false]);
  });

  test("a store of 400 files under a limit of 200 descriptors: status reads them a few at a time, no EMFILE read as damage", async () => {
    const { dir, repo } = await scene();
    const prepared = await evidence(["prepare", "r.json", "--home", dir], repo);
    const path = prepared.stdout.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const root = path.slice(0, path.lastIndexOf("/"));
    for (let i = 1; i < 400; i += 1) fs.writeFileSync(join(root, `${i.toString(16).padStart(64, "0")}.json`), "{}");
    const run = statusWithin200Descriptors(dir, repo);
    expect([run.status, run.stderr]).toEqual([1, ""]);
    expect(run.stdout).not.toContain("EMFILE");
    expect(run.stdout).toContain(`evidence-pending pr 23 task "Task 9" attempt "attempt-1" reason not-published\n  ${path}\n`);
    expect(run.stdout.match(/^unreadable /gm)?.length).toBe(399);
  });

  test("300 records under a limit of 200 descriptors: status checks every snapshot a few at a time, none called corrupt", async () => {
    const { dir, repo } = await scene();
    const store = (await nodePendingStore({ repo, home: dir, env: {} }))._unsafeUnwrap();
    for (let i = 0; i < 300; i += 1) {
      const record = parseRecordJson(RECORD.replace('"attempt-1"', `"attempt-${i}"`))._unsafeUnwrap();
      (await prepare(record, { store }))._unsafeUnwrap();
    }
    const run = statusWithin200Descriptors(dir, repo);
    expect([run.status, run.stderr]).toEqual([1, ""]);
    expect([run.stdout.match(/^evidence-pending .* reason not-published\n/gm)?.length, /corrupt|unreadable|EMFILE/.test(run.stdout)]).toEqual([300, false]);
  });
});
