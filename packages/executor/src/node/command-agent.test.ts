import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ended } from "../../../../test-utils/process.js";
import { tempDir } from "../../../../test-utils/tmp.js";
import { callAgent } from "../agent/call.js";
import type { RequestOf } from "../agent/protocol.js";
import { commandAgent } from "./command-agent.js";

let dir: string;
/** A Node program from its source, run as `node <file>`. */
const program = (name: string, source: string) => {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return { command: process.execPath, args: [file] };
};
const request = (): RequestOf<"adjudicate"> => ({
  role: "adjudicate",
  model: "fable",
  cwd: dir,
  stage: "S1",
  attempt: 1,
  try: 1,
  guardrails: ["no network"],
  diagnoses: [{ lens: "what-changed", cause: "c", fix: "f", acceptance_effect: "none" }],
});

beforeAll(async () => {
  dir = await tempDir("decay-agent-");
});

describe("commandAgent", () => {
  test("sends the request on stdin, in the repository's directory, and hands back the reply", async () => {
    const echo = program(
      "echo",
      `import { readFileSync } from "node:fs";
       const r = JSON.parse(readFileSync(0, "utf8"));
       process.stdout.write(JSON.stringify({ tokens: 7, chosen: 0, reason: r.role + " in " + process.cwd() + " " + process.env.EXTRA + " " + r.guardrails[0] }));`,
    );
    const out = await callAgent(commandAgent({ ...echo, env: { EXTRA: "x1" } }), request(), 1);
    expect(out).toEqual({ ok: true, tokens: 7, value: { tokens: 7, chosen: 0, reason: `adjudicate in ${dir} x1 no network` } });
  });

  test.each([
    [
      "a non-zero exit, with stderr's tail",
      `process.stderr.write("line 1\\nout of credits\\n"); process.exit(3);`,
      /exited 3; stderr: line 1 \/ out of credits/,
    ],
    ["no reply", `process.stderr.write("thinking...");`, /printed no reply on stdout; stderr: thinking\.\.\./],
    ["a reply that is not JSON", `process.stdout.write("Sure! Here is the fix.");`, /printed a reply that is not JSON/],
    ["a reply of the wrong shape", `process.stdout.write(JSON.stringify({ tokens: 1, summary: "done" }));`, /invalid adjudicate reply/],
    [
      "a reply that is not UTF-8",
      `process.stdout.write(Buffer.from([...Buffer.from('{"tokens":1,"chosen":0,"reason":"a'), 0xff, ...Buffer.from('"}')]));`,
      /printed a reply that is not UTF-8: byte 0xFF at byte offset 34 cannot be decoded$/,
    ],
    [
      "a reply printed twice",
      `const r = JSON.stringify({ tokens: 1, chosen: 0, reason: "r" }); process.stdout.write(r + "\\n" + r + "\\n");`,
      /printed 2 JSON values, one per line, where the protocol takes one reply/,
    ],
  ])("%s returns nothing, with the reason", async (name, source, reason) => {
    const out = await callAgent(commandAgent(program(name.replace(/\W+/g, "-"), source)), request(), 1);
    expect(out.ok).toBe(false);
    expect(!out.ok && out.reason).toMatch(reason);
  });

  test("a reply that is not JSON is quoted on one line: escaped, cut at 80 characters, with stderr's tail", async () => {
    const garbage = program("garbage", `process.stdout.write("oops\\nno\\n" + "x".repeat(500)); process.stderr.write("warn\\r\\u001b[31mred\\n");`);
    const out = await callAgent(commandAgent(garbage), request(), 1);
    expect(out.ok).toBe(false);
    const reason = out.ok ? "" : out.reason;
    expect(reason).not.toMatch(/[\n\r\u001b]/);
    expect(reason).toContain(`printed a reply that is not JSON: "oops\\nno\\n${"x".repeat(72)}…"; stderr: warn\\r\\u001b[31mred`);
  });

  test("a program that does not exist returns nothing: it could not start", async () => {
    const out = await callAgent(commandAgent({ command: join(dir, "no-such-agent") }), request(), 1);
    expect(!out.ok && out.reason).toMatch(/no-such-agent: could not start: .*ENOENT/);
  });

  test("a timeout kills the whole process group and returns nothing", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const slow = program(
      "slow",
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
       const c = spawn("sleep", ["60"], { stdio: "ignore" }); writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
       setInterval(() => {}, 1000);`,
    );
    const out = await callAgent(commandAgent({ ...slow, timeoutMs: 500, killGraceMs: 100 }), request(), 1);
    expect(!out.ok && out.reason).toMatch(/timed out after 500 ms/);
    const { readFileSync } = await import("node:fs");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(await ended(pid)).toBe(true);
  });

  test("a program that exits while a daemon it started holds its stdout returns nothing, and does not hang", async () => {
    const pidFile = join(dir, "daemon.pid");
    const daemon = program(
      "daemon",
      `import { spawn } from "node:child_process"; import { writeFileSync } from "node:fs";
       const d = spawn("sleep", ["300"], { detached: true, stdio: ["ignore", "inherit", "inherit"] }); d.unref(); writeFileSync(${JSON.stringify(pidFile)}, String(d.pid));
       process.stdout.write(JSON.stringify({ tokens: 1, chosen: 0, reason: "started a daemon" }));`,
    );
    const out = await callAgent(commandAgent({ ...daemon, outputGraceMs: 200 }), request(), 1);
    const { readFileSync } = await import("node:fs");
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    expect(!out.ok && out.reason).toMatch(
      /exited 0, but a process it started outside its process group \(setsid, a daemon\) still held its stdout or stderr open 200 ms later/,
    );
  });

  test("aborting the signal kills the call in flight and any later call", async () => {
    const controller = new AbortController();
    const started = join(dir, "started");
    const hang = program("hang", `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(started)}, "1"); setInterval(() => {}, 1000);`);
    const agent = commandAgent({ ...hang, signal: controller.signal, killGraceMs: 100 });
    const pending = callAgent(agent, request(), 1);
    const { existsSync } = await import("node:fs");
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, reason: expect.stringMatching(/interrupted/) });
    expect(await callAgent(agent, request(), 1)).toMatchObject({ ok: false, reason: expect.stringMatching(/interrupted before it started/) });
  });
});
