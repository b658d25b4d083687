import { mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { slug } from "../record/slug.js";
import { CLI_OUTPUT_SCHEMA_ID } from "./output.js";
import { type memoryIo, project, runCli, writeRecordFile, VECTOR_CONTENT, VECTOR_RECORD } from "../../test/support/cli-testing.js";

// records[0] of the reference vectors, with its expected hashes and body.
const RECORD = VECTOR_RECORD;
const CONTENT = VECTOR_CONTENT;
const KEY = "3f83717770d4f78be33f7190192b931c97d385c0f878286b12b29288508fd22c";
const vectors = JSON.parse(readFileSync(new URL("../../test/vectors/evidence-vectors.json", import.meta.url), "utf8")) as { records: { body: string }[] };
const BODY = vectors.records[0]?.body ?? "";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const run = runCli;

describe("hash and slug", () => {
  test("hash prints content_sha256, key_hash and with --body the exact comment body and one newline", async () => {
    const { repo } = await project();
    const file = writeRecordFile(repo, "r.json", RECORD);
    const plain = await run(["hash", file], { cwd: repo });
    expect(plain).toEqual({ code: 0, out: `content_sha256 ${CONTENT}\nkey_hash ${KEY}\n`, err: "" });
    const body = await run(["hash", file, "--body"], { cwd: repo });
    expect(body.out).toBe(`content_sha256 ${CONTENT}\nkey_hash ${KEY}\n${BODY}\n`);
    const stdin = await run(["hash", "-", "--json"], { cwd: repo, stdin: RECORD });
    expect(JSON.parse(stdin.out)).toEqual({ $schema: CLI_OUTPUT_SCHEMA_ID, version: 1, content_sha256: CONTENT, key_hash: KEY });
  });

  test("a record that fails validation exits 2 naming the field; bad JSON names the line", async () => {
    const { repo } = await project();
    const bad = await run(["hash", writeRecordFile(repo, "bad.json", RECORD.replace('"pr":23', '"pr":23.0'))], { cwd: repo });
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toContain("invalid PR (field pr)");
    // A pr of 5000 digits: the reference's json.loads reads no integer past 4300 digits, so no hash.
    const long = await run(["hash", writeRecordFile(repo, "long.json", RECORD.replace('"pr":23', `"pr":${"9".repeat(5000)}`))], { cwd: repo });
    expect([long.code, long.out]).toEqual([2, ""]);
    expect(long.err).toMatch(/long\.json: invalid JSON: the integer 9{80}… \(5000 characters\) has more than 4300 digits/);
    const broken = await run(["hash", writeRecordFile(repo, "broken.json", '{\n"a": }')], { cwd: repo });
    expect([broken.code, broken.err.includes("line 2")]).toEqual([2, true]);
    const secret = RECORD.replace("health checks passed", "token ghp_" + "x".repeat(36));
    const leaked = await run(["hash", writeRecordFile(repo, "secret.json", secret)], { cwd: repo });
    expect([leaked.code, leaked.err.includes("checks[0].result"), leaked.err.includes("ghp_")]).toEqual([2, true, false]);
    const missing = await run(["hash", "nope.json", "--json"], { cwd: repo });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.out).fault.code).toBe("input-unreadable");
  });

  test("slug prints the reference's slug", async () => {
    expect(await run(["slug", "/srv/ref-vectors/my project dir"], { cwd: "/" })).toEqual({ code: 0, out: "my project dir-0a6df8e8e3f0\n", err: "" });
    expect((await run(["slug", "my project dir"], { cwd: "/srv/ref-vectors" })).out).toBe("my project dir-0a6df8e8e3f0\n");
  });

  test("slug resolves symlinks as far as the path exists, as the reference's Path.resolve() does", async () => {
    const base = realpathSync(await tempDir("decay-ev-slug-"));
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "link"));
    const slugOf = async (path: string) => (await run(["slug", path], { cwd: base })).out;
    expect(await slugOf("link")).toBe(`${slug(join(base, "real"))}\n`);
    expect(await slugOf("link/not-yet")).toBe(`${slug(join(base, "real", "not-yet"))}\n`);
    expect(await slugOf(join(base, "link"))).not.toBe(`${slug(join(base, "link"))}\n`);
  });

  test("help, version, and usage faults exit 2", async () => {
    expect((await run(["--help"], { cwd: "/" })).out).toContain("decay-evidence prepare RECORD.json");
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect((await run(["--version"], { cwd: "/" })).out).toBe(`decay-evidence ${pkg.version}\n`);
    // --json holds for --help and --version too: one JSON object on stdout.
    expect(JSON.parse((await run(["--version", "--json"], { cwd: "/" })).out)).toEqual({
      $schema: CLI_OUTPUT_SCHEMA_ID,
      version: 1,
      name: "decay-evidence",
      package_version: pkg.version,
    });
    const help = JSON.parse((await run(["--help", "--json"], { cwd: "/" })).out) as { help: string };
    expect(help.help).toContain("decay-evidence prepare RECORD.json");
    for (const argv of [[], ["frob"], ["hash"], ["slug", "a", "b"], ["status", "--body"], ["hash", "x", "--nope"], ["status", "--layout", "x"]]) {
      const r = await run(argv, { cwd: "/" });
      expect([argv, r.code, r.err.includes("usage:")]).toEqual([argv, 2, true]);
    }
  });

  test("a failed write to stdout exits 2", async () => {
    expect((await run(["slug", "/x"], { cwd: "/", failStdout: true })).code).toBe(2);
  });
});

describe("prepare, status, publish against a local GitHub stand-in", () => {
  async function setup() {
    const { repo, home } = await project();
    const server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { tok: { author: { id: 17n, login: "owner" } } } });
    servers.push(server);
    const env = { HOME: home, GITHUB_TOKEN: "tok" };
    const file = writeRecordFile(repo, "r.json", RECORD);
    const exec = (argv: string[], extra: Partial<Parameters<typeof memoryIo>[0]> = {}) => run(argv, { cwd: repo, env, ...extra });
    return { repo, home, server, file, exec };
  }

  test("prepare saves a pending envelope; status exits 1 while it is pending", async () => {
    const { repo, home, file, exec } = await setup();
    const prepared = await exec(["prepare", file]);
    expect(prepared.code).toBe(0);
    const path = prepared.out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    expect(path.startsWith(`${home}/.decay/evidence/`)).toBe(true);
    expect(path.endsWith(`/${KEY}.json`)).toBe(true);
    const status = await exec(["status"]);
    expect(status.code).toBe(1);
    expect(status.out).toContain("evidence-pending pr 23");
    const elsewhere = await run(["status", "--repo", repo, "--home", home], { cwd: "/" });
    expect([elsewhere.code, elsewhere.out.includes(path)]).toEqual([1, true]);
    const json = JSON.parse((await exec(["status", "--json"])).out) as { records: { evidence_status: string }[] };
    expect(json.records.map((r) => r.evidence_status)).toEqual(["evidence-pending"]);
    const agentflow = await exec(["prepare", file, "--layout", "agentflow"]);
    expect(agentflow.out).toContain(`${home}/.sentimony/agentflow/implement/`);
  });

  test("publish needs the operator's authority and the approved hash; then publishes once", async () => {
    const { server, file, exec } = await setup();
    const path = (await exec(["prepare", file])).out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const api = ["--github", "owner/repo", "--api-url", server.baseUrl];
    const unauthorized = await exec(["publish", path, ...api]);
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.out).toContain(
      "\nreason not-authorized: publication not authorized: no grantPublication(...) authority with allowPublish: true was given\n",
    );
    const wrong = await exec(["publish", path, ...api, "--allow-publish", "--content-sha256", "0".repeat(64)]);
    expect([wrong.code, wrong.out.includes("reason authority-mismatch")]).toEqual([1, true]);
    expect(server.comments.size).toBe(0);
    const ok = await exec(["publish", path, ...api, "--allow-publish", "--content-sha256", CONTENT]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^published https:\/\/forge\.test\/owner\/repo\/pull\/23#issuecomment-\d+\n$/);
    const again = await exec(["publish", path, ...api, "--allow-publish", "--content-sha256", CONTENT, "--json"]);
    expect([again.code, JSON.parse(again.out).evidence_status]).toEqual([0, "published"]);
    expect(server.comments.size).toBe(1);
    expect([...server.comments.values()][0]?.body).toBe(BODY);
    expect((await exec(["status"])).code).toBe(0);
  });

  test("publish refuses another repository and a missing token (exit 2, nothing written)", async () => {
    const { server, file, exec } = await setup();
    const path = (await exec(["prepare", file])).out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const flags = ["--allow-publish", "--content-sha256", CONTENT, "--api-url", server.baseUrl];
    const other = await exec(["publish", path, "--github", "owner/other", ...flags]);
    expect([other.code, other.err.includes("does not match")]).toEqual([2, true]);
    const noToken = await exec(["publish", path, "--github", "owner/repo", ...flags], { env: {} });
    expect([noToken.code, noToken.err.includes("GITHUB_TOKEN")]).toEqual([2, true]);
    const notFound = await exec(["publish", `${path}.missing`, "--github", "owner/repo", ...flags]);
    expect(notFound.code).toBe(2);
    expect(server.comments.size).toBe(0);
  });

  test("an App installation token publishes with the identity from --author-id/--author-login", async () => {
    const { repo, home } = await project();
    const app = { id: 2n ** 63n, login: "evidence-app[bot]" };
    const server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { apptok: { author: app, app: true } } });
    servers.push(server);
    const record = RECORD.replace('"author":{"id":17,"login":"owner"}', '"author":{"id":9223372036854775808,"login":"evidence-app[bot]"}');
    const exec = (argv: string[]) => run(argv, { cwd: repo, env: { HOME: home, GITHUB_TOKEN: "apptok" } });
    const path = (await exec(["prepare", writeRecordFile(repo, "app.json", record)])).out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    const content = (await exec(["hash", "records/app.json"])).out.split("\n")[0]?.replace("content_sha256 ", "") ?? "";
    const flags = ["--github", "owner/repo", "--api-url", server.baseUrl, "--allow-publish", "--content-sha256", content];
    const noIdentity = await exec(["publish", path, ...flags]);
    expect(noIdentity.code).toBe(1);
    const ok = await exec(["publish", path, ...flags, "--author-id", "9223372036854775808", "--author-login", "evidence-app[bot]"]);
    expect([ok.code, ok.out.startsWith("published https://forge.test/owner/repo/pull/23#issuecomment-")]).toEqual([0, true]);
    expect([...server.comments.values()].map((c) => c.user.id)).toEqual([app.id]);
  });

  test("an unavailable forge leaves it pending with the reason (exit 1)", async () => {
    const { server, file, exec } = await setup();
    const path = (await exec(["prepare", file])).out.split("\n")[0]?.replace("evidence-pending ", "") ?? "";
    server.inject("GET", { kind: "status", status: 503 }, 50);
    const r = await exec(["publish", path, "--github", "owner/repo", "--api-url", server.baseUrl, "--allow-publish", "--content-sha256", CONTENT]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\nreason transport-unavailable: the transport is unavailable: GET \/\S+: HTTP 503: injected 503\n$/);
    const json = await exec(["publish", path, "--github", "owner/repo", "--api-url", server.baseUrl, "--allow-publish", "--content-sha256", CONTENT, "--json"]);
    expect(JSON.parse(json.out)).toMatchObject({
      evidence_status: "evidence-pending",
      reason: "transport-unavailable",
      detail: expect.stringMatching(/HTTP 503/),
    });
  });
});
