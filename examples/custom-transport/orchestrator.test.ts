import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../test-utils/tmp.js";
import { runOrchestrator } from "./orchestrator.js";

const RECORD = {
  schema: "evidence-record-v1",
  repo: "forge.example/acme/shop",
  pr: 42,
  task: "Task 3",
  attempt: "attempt-1",
  merge_sha: "9".repeat(40),
  deployment: { id: "deploy-7", version: "v1.4.2" },
  timestamp: 1_700_000_000.5,
  checks: [{ command: "smoke-test --prod", result: "12 of 12 passed" }],
  production_status: "succeeded",
  author: { id: 4242, login: "release-bot" },
  previous_attempt: null,
};

async function workspace(): Promise<{ projectDir: string; homeDir: string; forgeFile: string }> {
  const base = await tempDir("decay-example-");
  const projectDir = join(base, "project");
  const homeDir = join(base, "home");
  mkdirSync(projectDir);
  mkdirSync(homeDir);
  execFileSync("git", ["init", "-q", projectDir], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
  return { projectDir, homeDir, forgeFile: join(base, "forge.json") };
}

describe("examples/custom-transport", () => {
  test("a crash between write and readback is recovered on retry with exactly one comment, published", async () => {
    const w = await workspace();
    const report = await runOrchestrator({ ...w, recordJson: JSON.stringify(RECORD) });
    expect(report.crashed).toEqual({ status: "evidence-pending", reason: "transport-unknown-outcome" });
    expect(report.recovered.status).toBe("published");
    const forge = JSON.parse(readFileSync(w.forgeFile, "utf8")) as { comments: Array<{ id: number; body: string; author_login: string }> };
    expect(forge.comments).toHaveLength(1);
    const [comment] = forge.comments;
    expect(comment?.author_login).toBe("release-bot");
    expect(comment?.body.startsWith("<!-- agentflow-evidence:v1 ")).toBe(true);
    expect(report.recovered.canonicalUrl).toBe(`https://forge.example/acme/shop/pull/42#issuecomment-${comment?.id}`);
    const envelope = JSON.parse(readFileSync(report.path, "utf8")) as { write_state: string; comment_id: number };
    expect(envelope).toMatchObject({ write_state: "confirmed", comment_id: comment?.id });
  });
});
