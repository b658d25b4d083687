import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.js";
import { type memoryIo, project, runCli, writeRecordFile, VECTOR_CONTENT, VECTOR_RECORD } from "../../test/support/cli-testing.js";

const RECORD = VECTOR_RECORD;
const CONTENT = VECTOR_CONTENT;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const run = runCli;

async function prepared() {
  const { repo, home } = await project();
  const env = { HOME: home, GITHUB_TOKEN: "tok" };
  const exec = (argv: string[], extra: Partial<Parameters<typeof memoryIo>[0]> = {}) => run(argv, { cwd: repo, env, ...extra });
  const file = writeRecordFile(repo, "r.json", RECORD);
  const out = await exec(["prepare", file]);
  expect(out.code).toBe(0);
  const path = out.out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
  const root = path.slice(0, path.lastIndexOf("/"));
  return { repo, home, exec, file, path, root, snapshot: join(root, `snapshot-${CONTENT}.json`) };
}

// A prepared record published once through a local test server; the server stays up for the test.
async function published() {
  const ready = await prepared();
  const server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { tok: { author: { id: 17n, login: "owner" } } } });
  servers.push(server);
  const flags = ["--github", "owner/repo", "--api-url", server.baseUrl, "--allow-publish", "--content-sha256", CONTENT];
  const first = await ready.exec(["publish", ready.path, ...flags]);
  const url = first.out.replace("published ", "").trim();
  expect([first.code, url]).toEqual([0, expect.stringContaining("#issuecomment-")]);
  return { ...ready, server, flags, url };
}

describe("inputs are bounded (decay-evidence)", () => {
  test("a record file that is a FIFO is refused before it is opened", async () => {
    const { repo } = await project();
    execFileSync("mkfifo", [join(repo, "records", "pipe.json")]);
    for (const command of ["hash", "prepare"]) {
      const r = await run([command, "records/pipe.json"], { cwd: repo });
      expect([r.code, r.out]).toEqual([2, ""]);
      expect(r.err).toBe("decay-evidence: cannot read records/pipe.json: it is a FIFO (named pipe), not a regular file\n");
    }
  });

  test("standard input past --max-input-bytes is refused; --json prints a fault object", async () => {
    const { repo } = await project();
    const r = await run(["hash", "-", "--json", "--max-input-bytes", "100"], { cwd: repo, stdin: RECORD });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).fault.message).toBe("cannot read standard input: it is larger than the limit of 100 bytes (--max-input-bytes raises it)");
  });

  test("a record nested 20000 deep is a fault naming the limit and where; a NUL the parser quotes is escaped", async () => {
    const { repo } = await project();
    const deep = await run(["hash", writeRecordFile(repo, "deep.json", "[".repeat(20000))], { cwd: repo });
    expect([deep.code, deep.err]).toEqual([
      2,
      "decay-evidence: records/deep.json: invalid JSON at line 1, column 513: arrays and objects nested deeper than 512\n",
    ]);
    const nul = await run(["hash", writeRecordFile(repo, "nul.json", '{"a":1\u0000}')], { cwd: repo });
    expect(nul.code).toBe(2);
    expect(nul.err).toContain("\\u0000");
    expect(nul.err).not.toContain("\u0000");
  });

  test("an envelope that is a FIFO is refused by status and publish, never opened", async () => {
    const { exec, path, root } = await prepared();
    rmSync(path);
    execFileSync("mkfifo", [path]);
    const status = await exec(["status"]);
    expect(status.code).toBe(1);
    expect(status.out).toContain(`unreadable ${path}\n  evidence store: ${path} is a FIFO, socket or device, not a regular file`);
    expect(readdirSync(root).sort()).toEqual([path.slice(root.length + 1), `snapshot-${CONTENT}.json`].sort());
  });
});

describe("a linked worktree's commondir is read as git reads it", () => {
  // A main checkout with one commit and a linked worktree `wt` beside it; its commondir file.
  async function worktree() {
    const { repo, home } = await project();
    const { PATH = "" } = process.env;
    const env = { PATH, GIT_CONFIG_NOSYSTEM: "1", HOME: home };
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"], { cwd: repo, env });
    const wt = `${repo}-wt`;
    execFileSync("git", ["worktree", "add", "-q", wt], { cwd: repo, env });
    const commondir = join(repo, ".git", "worktrees", wt.slice(wt.lastIndexOf("/") + 1), "commondir");
    const storeOf = async (cwd: string) => (await run(["status", "--json"], { cwd, env: { HOME: home } })).out;
    return { repo, home, wt, commondir, storeOf };
  }

  test("one ending in CRLF leads to the main checkout's store, as git takes it", async () => {
    const { repo, wt, commondir, storeOf } = await worktree();
    writeFileSync(commondir, "../..\r\n");
    const main = await storeOf(repo);
    expect(JSON.parse(main).root).toMatch(/\.decay\/evidence\//);
    expect(await storeOf(wt)).toBe(main);
  });

  test("a FIFO, an empty one, or one holding escapes is refused at once, its text escaped", async () => {
    const { home, wt, commondir } = await worktree();
    const status = () => run(["status"], { cwd: wt, env: { HOME: home } });
    rmSync(commondir);
    execFileSync("mkfifo", [commondir]);
    expect(await status()).toEqual({ code: 2, out: "", err: expect.stringContaining(`${commondir} is not a regular file`) });
    rmSync(commondir);
    writeFileSync(commondir, "\r\n");
    expect(await status()).toEqual({ code: 2, out: "", err: expect.stringContaining(`${commondir} is empty`) });
    // A trailing blank is part of the path, as git reads it: no such directory.
    writeFileSync(commondir, "../.. \n");
    expect(await status()).toMatchObject({ code: 2, out: "", err: expect.stringContaining("is missing") });
    writeFileSync(commondir, "../..\r../..\n");
    expect(await status()).toEqual({ code: 2, out: "", err: expect.stringContaining(`${commondir} holds more than one line`) });
    writeFileSync(commondir, "/nowhere\u001b[2J\u001b[31mRED\n");
    const escaped = await status();
    expect(escaped.code).toBe(2);
    expect(escaped.err).toContain("/nowhere\\u001b[2J");
    expect(escaped.err).not.toMatch(/[\u001b\r]/);
    expect(escaped.err.split("\n")).toHaveLength(2);
  });
});

describe("section 7: the evidence store and publish", () => {
  test("prepare restores a deleted or corrupted snapshot; status reports one", async () => {
    const { exec, file, snapshot } = await prepared();
    const intact = readFileSync(snapshot, "utf8");
    rmSync(snapshot);
    const missing = await exec(["status"]);
    expect(missing.out).toMatch(/evidence-pending pr 23 .* snapshot missing\n/);
    expect((await exec(["prepare", file])).code).toBe(0);
    expect(readFileSync(snapshot, "utf8")).toBe(intact);
    writeFileSync(snapshot, "{}\n");
    const json = JSON.parse((await exec(["status", "--json"])).out) as { records: { snapshot: string }[] };
    expect(json.records.map((r) => r.snapshot)).toEqual(["corrupt"]);
    expect((await exec(["prepare", file])).code).toBe(0);
    expect(readFileSync(snapshot, "utf8")).toBe(intact);
    expect(JSON.parse((await exec(["status", "--json"])).out).records[0].snapshot).toBe("ok");
  });

  test("status reports a snapshot it cannot read as unreadable with the reason, never as corrupt", async () => {
    const { exec, snapshot } = await prepared();
    rmSync(snapshot);
    execFileSync("mkfifo", [snapshot]);
    const status = await exec(["status"]);
    expect(status.code).toBe(1);
    expect(status.out).toMatch(
      /evidence-pending pr 23 .* snapshot unreadable\n {2}\S+\n {2}evidence store: \S+ is a FIFO, socket or device, not a regular file; refusing to read or write it\n/,
    );
    expect(status.out).not.toContain("corrupt");
    const json = JSON.parse((await exec(["status", "--json"])).out) as { records: { snapshot: string; snapshot_fault?: { message: string } }[] };
    expect(json.records.map((r) => r.snapshot)).toEqual(["unreadable"]);
    expect(json.records[0]?.snapshot_fault?.message).toContain(`${snapshot} is a FIFO, socket or device`);
  });

  test("status reports a snapshot longer than its content as corrupt, whatever its size, and prepare restores it", async () => {
    const { exec, file, snapshot } = await prepared();
    const intact = readFileSync(snapshot, "utf8");
    for (const size of [intact.length + 1, 70 * 1024 * 1024]) {
      truncateSync(snapshot, size);
      const status = await exec(["status", "--max-input-bytes", "100000"]);
      expect(status.code).toBe(1);
      expect(status.out).toMatch(/evidence-pending pr 23 .* snapshot corrupt\n/);
      expect(status.err).toBe("");
      expect((await exec(["prepare", file])).code).toBe(0);
      expect(readFileSync(snapshot, "utf8")).toBe(intact);
    }
  });

  test("re-publishing a published record while the forge is down keeps it published with its URL", async () => {
    const { exec, path, server, flags, url } = await published();
    server.inject("GET", { kind: "status", status: 503 }, 50);
    const again = await exec(["publish", path, ...flags]);
    expect(again.code).toBe(1);
    expect(again.out).toBe(
      `published ${url}\nreason transport-unavailable: the record stays published; this run could not reach the forge to confirm it (the transport is unavailable: GET /user: HTTP 503: injected 503)\n`,
    );
    const stored = JSON.parse(readFileSync(path, "utf8")) as { record: { evidence_status: string; canonical_url: string } };
    expect(stored.record).toMatchObject({ evidence_status: "published", canonical_url: url });
  });

  test("an interrupted publish of a published record keeps it published with its URL, and sends nothing more", async () => {
    const { exec, path, server, flags, url } = await published();
    // The forge takes the next request and does not answer for a minute: the operator presses Ctrl-C.
    server.inject("GET", { kind: "delay", ms: 60_000 });
    const sent = server.requests.length;
    let listening = 0;
    const onInterrupt = (stop: () => void) => {
      listening += 1;
      const waiting = setInterval(() => {
        if (server.requests.length > sent) {
          clearInterval(waiting);
          stop();
        }
      }, 10);
      return () => {
        clearInterval(waiting);
        listening -= 1;
      };
    };
    const again = await exec(["publish", path, ...flags], { onInterrupt });
    expect(again.code).toBe(1);
    const [said, why] = again.out.split("\n");
    expect(said).toBe(`published ${url}`);
    expect(why).toMatch(/^reason transport-unavailable: the record stays published; .*: interrupted while waiting for the reply\)$/);
    expect(server.requests.length).toBe(sent + 1);
    expect(listening).toBe(0);
    const stored = JSON.parse(readFileSync(path, "utf8")) as { record: { evidence_status: string; canonical_url: string } };
    expect(stored.record).toMatchObject({ evidence_status: "published", canonical_url: url });
  });

  test("the built bin: Ctrl-C (SIGINT) during a publish stops it, and the published record keeps its URL", async () => {
    const { home, repo, path, server, flags, url } = await published();
    server.inject("GET", { kind: "delay", ms: 60_000 });
    const sent = server.requests.length;
    // The root test script builds before vitest; build by hand for a lone run.
    const bin = new URL("../../dist/bin.js", import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, "publish", path, ...flags], {
      cwd: repo,
      env: { PATH: process.env["PATH"] ?? "", HOME: home, GITHUB_TOKEN: "tok" },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()));
    const ended = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    while (server.requests.length === sent) await new Promise((r) => setTimeout(r, 10));
    child.kill("SIGINT");
    expect(await ended).toBe(1);
    expect(out.split("\n")[0]).toBe(`published ${url}`);
    expect(out).toContain("interrupted while waiting for the reply");
    expect(server.requests.length).toBe(sent + 1);
    const stored = JSON.parse(readFileSync(path, "utf8")) as { record: { evidence_status: string; canonical_url: string } };
    expect(stored.record).toMatchObject({ evidence_status: "published", canonical_url: url });
  });

  test("an invalid --api-url is a usage fault saying why, before any request; a relative --home is refused", async () => {
    const { exec, path } = await prepared();
    const urls: readonly (readonly [string, string])[] = [
      ["not a url", "it does not parse as an absolute URL"],
      ["ftp://example.test/api", "its scheme is ftp, not https or http"],
      ["https://user:pw@example.test", "it holds credentials"],
    ];
    for (const [url, why] of urls) {
      const r = await exec(["publish", path, "--github", "owner/repo", "--api-url", url]);
      expect([url, r.code, r.out]).toEqual([url, 2, ""]);
      expect(r.err).toContain(`--api-url ${JSON.stringify(url)} is not a valid URL: ${why}`);
    }
    const relative = await exec(["status", "--home", "some/home"]);
    expect([relative.code, relative.err]).toEqual([2, 'decay-evidence: usage: --home must be an absolute path, not "some/home" (see decay-evidence --help)\n']);
  });

  test("an envelope or a record that starts with a BOM is refused, naming the file", async () => {
    const { exec, file, path, repo } = await prepared();
    const bytes = readFileSync(path);
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]));
    const again = await exec(["prepare", file]);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`${path}: invalid pending envelope at its top level: the file starts with a UTF-8 byte order mark (BOM)`);
    writeRecordFile(repo, "bom.json", `\uFEFF${RECORD}`);
    const record = await exec(["hash", "records/bom.json"]);
    expect([record.code, record.err]).toEqual([2, expect.stringContaining("records/bom.json starts with a UTF-8 byte order mark (BOM)")]);
  });

  test("a checkout path the runtime sees with U+FFFD (bytes that are not UTF-8) is refused, never hashed", async () => {
    const r = await run(["slug", "/srv/caf\uFFFD"], { cwd: "/" });
    expect([r.code, r.out]).toEqual([2, ""]);
    expect(r.err).toContain("the path /srv/caf\uFFFD holds bytes that are not UTF-8 (shown as U+FFFD)");
    const store = await run(["status", "--repo", "/srv/caf\uFFFD", "--home", "/tmp"], { cwd: "/" });
    expect(store.code).toBe(2);
  });

  test("one unreadable envelope does not hide the others: status lists each and exits 1", async () => {
    const { exec, root, repo } = await prepared();
    const second = writeRecordFile(repo, "r2.json", RECORD.replace('"Task 9"', '"Task 10"'));
    expect((await exec(["prepare", second])).code).toBe(0);
    const broken = join(root, `${"0".repeat(64)}.json`);
    writeFileSync(broken, "{ not json");
    const r = await exec(["status", "--json"]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out) as { records: { task: string }[]; unreadable: { path: string; code: string }[] };
    expect(json.records.map((x) => x.task).sort()).toEqual(["Task 10", "Task 9"]);
    expect(json.unreadable).toEqual([{ path: broken, code: "invalid-json", message: expect.stringContaining("") }]);
  });

  test("a hand-edited envelope claiming published with nothing behind it is unreadable, never published", async () => {
    const { exec, path } = await prepared();
    const env = JSON.parse(readFileSync(path, "utf8"));
    env.record.evidence_status = "published";
    writeFileSync(path, JSON.stringify(env));
    const r = await exec(["status"]);
    expect(r.code).toBe(1);
    expect(r.out).not.toMatch(/^published/m);
    expect(r.out).toContain(`unreadable ${path}\n  `);
    expect(r.out).toContain("record.canonical_url");
  });

  test("status escapes control characters from a reason, so a hand-edited envelope cannot forge a line", async () => {
    const { exec, path } = await prepared();
    const env = JSON.parse(readFileSync(path, "utf8"));
    env.reason = "x\u001b[31m\nevidence-pending pr 1 task spoof";
    writeFileSync(path, JSON.stringify(env));
    const r = await exec(["status"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("reason x\\u001b[31m\\nevidence-pending pr 1 task spoof");
    expect(r.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(r.out.split("\n").filter((l) => l.startsWith("evidence-pending"))).toHaveLength(1);
  });
});
