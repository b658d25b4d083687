// Every `decay-evidence --json` output: its `$schema` is the `$id` of a schema the package ships,
// and it validates against that schema (the command's own branch of it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { outputProblems } from "../../../../test-utils/json-schema.js";
import { startTestServer, type TestServer } from "../testing/test-server.js";
import { project, runCli, writeRecordFile, VECTOR_CONTENT, VECTOR_RECORD } from "../../test/support/cli-testing.js";
import { CLI_OUTPUT_SCHEMA_ID } from "./output.js";

const SCHEMAS = fileURLToPath(new URL("../../schemas", import.meta.url));
const RECORD = VECTOR_RECORD;
const CONTENT = VECTOR_CONTENT;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Runs one command with --json; its stdout must be one object valid against the schema its $schema names. */
async function valid(argv: string[], opts: Parameters<typeof runCli>[1]): Promise<{ code: number; output: Record<string, unknown> }> {
  const r = await runCli([...argv, "--json"], opts);
  const output = JSON.parse(r.out) as Record<string, unknown>;
  expect(Object.keys(output)[0]).toBe("$schema");
  expect([output.$schema, output.version]).toEqual([CLI_OUTPUT_SCHEMA_ID, 1]);
  expect(outputProblems(output, SCHEMAS)).toEqual([]);
  return { code: r.code, output };
}

test("every command's --json output, and a fault's, names a shipped schema and validates against it", async () => {
  const { repo, home } = await project();
  const server = await startTestServer({ repo: "forge.test/owner/repo", tokens: { tok: { author: { id: 17n, login: "owner" } } } });
  servers.push(server);
  const opts = { cwd: repo, env: { HOME: home, GITHUB_TOKEN: "tok" } };
  const file = writeRecordFile(repo, "r.json", RECORD);
  expect((await valid(["hash", file], opts)).output).toHaveProperty("key_hash");
  expect((await valid(["hash", file, "--body"], opts)).output).toHaveProperty("body");
  expect((await valid(["slug", "."], opts)).output).toHaveProperty("slug");
  const { path } = (await valid(["prepare", file], opts)).output as { path: string };
  writeFileSync(join(path, "..", `${"0".repeat(64)}.json`), "{not json");
  const status = await valid(["status"], opts);
  expect(status.output).toMatchObject({ records: [{ evidence_status: "evidence-pending", pr: 23 }], unreadable: [{}] });
  const api = ["--github", "owner/repo", "--api-url", server.baseUrl];
  expect(await valid(["publish", path, ...api], opts)).toMatchObject({ code: 1, output: { evidence_status: "evidence-pending", reason: "not-authorized" } });
  const published = await valid(["publish", path, ...api, "--allow-publish", "--content-sha256", CONTENT], opts);
  expect(published).toMatchObject({ code: 0, output: { evidence_status: "published" } });
  expect((await valid(["--help"], opts)).output).toHaveProperty("help");
  expect((await valid(["--version"], opts)).output).toMatchObject({ name: "decay-evidence" });
  expect(await valid(["hash", "nope.json"], opts)).toMatchObject({ code: 2, output: { fault: { code: "input-unreadable" } } });
  expect(await valid(["frob"], opts)).toMatchObject({ code: 2, output: { fault: { code: "usage" } } });
});
