// The shell agent runs a template through `sh -c`: one argument, which Linux caps at 128 KiB. A
// prompt passed as a file has no such bound; one inlined past it is refused with the advice, where
// spawning would fail with E2BIG on every call.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const AGENT = fileURLToPath(new URL("./shell-agent.mjs", import.meta.url));

function call(template: string, diffBytes: number) {
  const cwd = mkdtempSync(join(tmpdir(), "decay-shell-agent-"));
  const request = {
    role: "execute",
    model: "m",
    stage: "S1",
    attempt: 2,
    cwd,
    guardrails: [],
    brief: { label: "Stage 1", title: "sum" },
    freeze: { diff: "+x\n".repeat(Math.ceil(diffBytes / 3)) },
  };
  return spawnSync(process.execPath, [AGENT, "--template", template], { cwd, input: JSON.stringify(request), encoding: "utf8" });
}

describe("shell-agent.mjs", () => {
  it("hands a prompt of any size over as a file", () => {
    const ran = call("wc -c < {prompt_file}; echo done", 300_000);
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ summary: expect.stringContaining("done") });
  });

  it("inlines a small prompt with {prompt}", () => {
    const ran = call("printf '%s' {prompt} | wc -c; echo inlined", 1_000);
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ summary: expect.stringContaining("inlined") });
  });

  it("refuses a command past one argument's bound, naming {prompt_file}, before running anything", () => {
    const ran = call("printf '%s' {prompt} > /dev/null; echo ran", 200_000);
    expect(ran.status).toBe(1);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toMatch(/^shell-agent: the command would be \d+ bytes, more than one argument holds \(131071\): .*\{prompt_file\}/);
  });
});
