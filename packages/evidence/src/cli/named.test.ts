// Every refusal of a record file, standard input or an envelope names what it refused: the user
// of `prepare` must be able to tell their record from the store's envelope.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { project, runCli, VECTOR_RECORD, writeRecordFile } from "../../test/support/cli-testing.js";
import { nodePendingStore } from "../node/store.js";
import { startTestServer } from "../testing/test-server.js";

const RECORD = VECTOR_RECORD;
const PUBLISH = ["--github", "owner/repo", "--api-url", "http://127.0.0.1:9"];

async function prepared() {
  const { repo, home } = await project();
  const exec = (argv: string[], stdin?: string) =>
    runCli(argv, { cwd: repo, env: { HOME: home, GITHUB_TOKEN: "tok" }, ...(stdin === undefined ? {} : { stdin }) });
  const out = await exec(["prepare", writeRecordFile(repo, "r.json", RECORD)]);
  expect(out.code).toBe(0);
  return { repo, home, exec, path: out.out.split("\n")[0]?.replace("evidence-pending ", "") ?? "" };
}

describe("a record or envelope that cannot be read as one is named", () => {
  test("an empty file name is refused as naming no file (hash, prepare, publish), never read as the working directory", async () => {
    const { exec } = await prepared();
    expect(await exec(["publish", "", "--github", "owner/repo"])).toEqual({
      code: 2,
      out: "",
      err: 'decay-evidence: cannot read "": the name is empty, and an empty argument names no file\n',
    });
    for (const command of ["hash", "prepare"]) {
      expect(await exec([command, ""])).toEqual({
        code: 2,
        out: "",
        err: 'decay-evidence: cannot read "": the name is empty, and an empty argument names no file\n',
      });
    }
  });

  test("a record file cut short, one missing its fields, standard input: each named (hash and prepare)", async () => {
    const { repo, exec } = await prepared();
    const cut = writeRecordFile(repo, "cut.json", RECORD.slice(0, 60));
    const empty = writeRecordFile(repo, "obj.json", '{"a":1}');
    for (const command of ["hash", "prepare"]) {
      expect(await exec([command, cut])).toMatchObject({
        code: 2,
        err: expect.stringMatching(/^decay-evidence: records\/cut\.json: invalid JSON at line 1, /),
      });
      expect(await exec([command, empty])).toMatchObject({ code: 2, err: "decay-evidence: records/obj.json: invalid content fields (field schema)\n" });
      expect(await exec([command, "-"], "[1,")).toMatchObject({
        code: 2,
        err: expect.stringMatching(/^decay-evidence: standard input: invalid JSON at line 1, /),
      });
    }
  });

  test("an envelope cut short or edited by hand: prepare, publish and status name the envelope, not the record", async () => {
    const { exec, path } = await prepared();
    const intact = readFileSync(path, "utf8");
    writeFileSync(path, intact.slice(0, 300));
    for (const argv of [
      ["prepare", "records/r.json"],
      ["publish", path, ...PUBLISH],
    ]) {
      expect(await exec(argv)).toMatchObject({
        code: 2,
        out: "",
        err: `decay-evidence: ${path}: invalid JSON at line 1, column 301: End of string '"' expected but reached end of input at position 300\n`,
      });
    }
    expect((await exec(["status"])).out).toContain(`unreadable ${path}\n  ${path}: invalid JSON at line 1, column 301`);
    writeFileSync(path, intact.replace('"pr":23', '"pr":-1'));
    const json = await exec(["prepare", "records/r.json", "--json"]);
    expect([json.code, JSON.parse(json.out).fault]).toEqual([2, { code: "invalid-record", message: `${path}: invalid PR (field pr)` }]);
  });

  test("property: any text in a record file is hashed or refused in one line naming the file, never thrown", async () => {
    const { repo, exec } = await prepared();
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.nat({ max: RECORD.length }).map((n) => RECORD.slice(0, n)),
      fc.tuple(fc.nat({ max: RECORD.length }), fc.string({ maxLength: 3 })).map(([n, s]) => RECORD.slice(0, n) + s + RECORD.slice(n)),
    );
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const file = writeRecordFile(repo, "in put.json", t);
        const r = await exec(["hash", file]);
        if (r.code === 0) return;
        expect(r.code).toBe(2);
        expect(r.err).toMatch(/^decay-evidence: [^\n]*records\/in put\.json[^\n]*\n$/);
      }),
      { numRuns: 150 },
    );
  });
});

describe("publish settings the transport would refuse on every call are a fault (exit 2), before anything is saved or sent", () => {
  test("plain http to a host that is not loopback, and a GITHUB_TOKEN holding whitespace", async () => {
    const { repo, home } = await project();
    const run = (argv: string[], token: string) => runCli(argv, { cwd: repo, env: { HOME: home, GITHUB_TOKEN: token } });
    const path = (await run(["prepare", writeRecordFile(repo, "r.json", RECORD)], "tok")).out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const hash = (await run(["hash", "records/r.json"], "tok")).out.split("\n")[0]?.replace("content_sha256 ", "") ?? "";
    const server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { tok: { author: { id: 17n, login: "owner" } } } });
    try {
      const publish = (api: string, token: string) =>
        run(["publish", path, "--github", "owner/repo", "--allow-publish", "--content-sha256", hash, "--api-url", api], token);
      const before = readFileSync(path, "utf8");
      expect(await publish("http://forge.example/api", "tok")).toEqual({
        code: 2,
        out: "",
        err: "decay-evidence: cannot publish with the GITHUB_TOKEN and --api-url given: API URL http://forge.example must use https (the token would travel in the clear); nothing was saved or sent\n",
      });
      expect(await publish(server.baseUrl, "tok spaced")).toMatchObject({
        code: 2,
        out: "",
        err: expect.stringContaining("the token is empty or holds whitespace"),
      });
      expect([readFileSync(path, "utf8"), server.requests]).toEqual([before, []]);
      expect(await publish(server.baseUrl, "tok")).toMatchObject({ code: 0, out: expect.stringMatching(/^published https:\/\/forge\.test\//) });
    } finally {
      await server.close();
    }
  });
});

describe("paths printed by prepare and status are escaped, so no name can split or redraw a line", () => {
  test("a file in the store named with a line break and an escape; a --home holding a line break", async () => {
    const { repo, home } = await project();
    const odd = join(home, "h\nx");
    mkdirSync(odd);
    const run = (argv: string[]) => runCli([...argv, "--home", odd], { cwd: repo, env: { HOME: home } });
    const prepared = await run(["prepare", writeRecordFile(repo, "r.json", RECORD)]);
    expect(prepared.code).toBe(0);
    expect(prepared.out).toMatch(/^evidence-pending [^\n]*\/h\\nx\/\.decay\/[^\n]*\.json\n$/);
    const root = join(odd, ".decay", "evidence", readdirSync(join(odd, ".decay", "evidence"))[0] ?? "");
    const envelope = readdirSync(root).find((n) => !n.startsWith("snapshot-")) ?? "";
    copyFileSync(join(root, envelope), join(root, "zz\n\u001b[31mRED.json"));
    const edited = JSON.parse(readFileSync(join(root, envelope), "utf8"));
    edited.record.content_sha256 = "x\n\u001b[2J";
    writeFileSync(join(root, `${"0".repeat(64)}.json`), JSON.stringify(edited));
    const status = await run(["status"]);
    expect(status.code).toBe(1);
    expect(status.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    const lines = status.out.split("\n");
    expect(lines[0]).toMatch(/^store [^\n]*\/h\\nx\/\.decay\/evidence\//);
    expect(lines.filter((l) => l.startsWith("unreadable ")).sort()).toEqual([
      expect.stringMatching(/\/0{64}\.json$/),
      expect.stringMatching(/\/zz\\n\\u001b\[31mRED\.json$/),
    ]);
    expect(lines.filter((l) => !/^(store|evidence-pending|unreadable) |^ {2}\S|^$/.test(l))).toEqual([]);
    expect(status.out).toContain('saved content_sha256 "x\\n\\u001b[2J" does not match');
  });
});

describe("slug and the store's top-level refusal, in words on one line", () => {
  test("slug of a checkout named with a line break and an escape: escaped in text, exact under --json", async () => {
    const { repo } = await project();
    const odd = join(repo, "a\nb\u001b[31m");
    const text = await runCli(["slug", odd], { cwd: repo });
    expect(text).toMatchObject({ code: 0, out: expect.stringMatching(/^a\\nb\\u001b\[31m-[0-9a-f]{12}\n$/) });
    const json = await runCli(["slug", odd, "--json"], { cwd: repo });
    expect(JSON.parse(json.out).slug).toMatch(/^a\nb\u001b\[31m-[0-9a-f]{12}$/);
  });

  test("publish of a snapshot (JSON that is not an envelope) says the envelope is refused at its top level", async () => {
    const { exec, path } = await prepared();
    const root = path.slice(0, path.lastIndexOf("/"));
    const snapshot = join(root, readdirSync(root).find((n) => n.startsWith("snapshot-")) ?? "");
    expect(await exec(["publish", snapshot, ...PUBLISH])).toEqual({
      code: 2,
      out: "",
      err: `decay-evidence: evidence store: ${snapshot}: invalid pending envelope at its top level: expected exactly record, write_state, comment_id, reason\n`,
    });
  });
});

describe("a prepare that meets the attempt's lock held says what holds it", () => {
  test("exit 2 naming the lock and its owner, saying a prepare or publish is running; the envelope untouched", async () => {
    const { repo, home, exec, path } = await prepared();
    const store = (await nodePendingStore({ repo, home, env: {} }))._unsafeUnwrap();
    const envelope = (await store.load(path))._unsafeUnwrap();
    const held = (await store.lock(envelope.record))._unsafeUnwrap();
    try {
      const before = readFileSync(path, "utf8");
      const r = await exec(["prepare", writeRecordFile(repo, "r2.json", RECORD.replace("health checks passed", "rerun"))]);
      expect([r.code, r.out]).toEqual([2, ""]);
      expect(r.err).toMatch(
        /^decay-evidence: evidence store: \S+\.lock is locked by process \d+ on \S+: a prepare or publish of this attempt is running; try again when it ends\n$/,
      );
      expect(readFileSync(path, "utf8")).toBe(before);
    } finally {
      (await held.release())._unsafeUnwrap();
    }
  });
});
