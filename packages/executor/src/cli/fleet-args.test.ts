import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseInvocation } from "./args.js";
import { checkOptions } from "../node/dbos/options.js";
import { parseFleet } from "./fleet-args.js";

const URL = ["--database-url", "postgresql://db/decay"];

describe("parseFleet", () => {
  it("reads a worker's flags, the workspace defaulting to decay-work", () => {
    const inv = parseFleet([
      "worker",
      ...URL,
      "--executor-id",
      "w1",
      "--app-version",
      "2026.12.1",
      "--concurrency",
      "3",
      "--agent",
      "claude-agent --fast",
    ])._unsafeUnwrap();
    expect(inv).toEqual({
      command: "worker",
      flags: {
        databaseUrl: "postgresql://db/decay",
        executorId: "w1",
        appVersion: "2026.12.1",
        concurrency: 3,
        workspace: "decay-work",
        agent: ["claude-agent", "--fast"],
        cleanRoom: "clone",
        bundle: undefined,
        queue: undefined,
      },
    });
  });

  const WORKER = ["worker", ...URL, "--executor-id", "w1", "--app-version", "v", "--agent", "a"];

  it("reads --pattern-timeout-ms on a worker; unset, the matcher's default stands", () => {
    expect(parseFleet([...WORKER, "--pattern-timeout-ms", "250"])._unsafeUnwrap()).toMatchObject({ flags: { patternTimeoutMs: 250 } });
    expect(parseFleet(WORKER)._unsafeUnwrap()).not.toHaveProperty("flags.patternTimeoutMs");
  });

  it.each(["0", "-5", "1.5", "1e3", "ten", "1000000000"])("refuses --pattern-timeout-ms %j on a worker as decay run does", (value) => {
    const fault = { code: "usage", flag: "--pattern-timeout-ms", message: `--pattern-timeout-ms must be a positive integer, not ${JSON.stringify(value)}` };
    expect(parseFleet([...WORKER, `--pattern-timeout-ms=${value}`])._unsafeUnwrapErr()).toEqual(fault);
    expect(parseInvocation(["run", "p.md", "--agent", "a", `--pattern-timeout-ms=${value}`])._unsafeUnwrapErr()).toEqual(fault);
  });

  it("reads any --pattern-timeout-ms text exactly as decay run does: the same bound or the same fault, never a throw", () => {
    const text = fc.oneof(fc.stringMatching(/^-?[0-9]{0,11}$/), fc.string());
    fc.assert(
      fc.property(text, (t) => {
        const worker = parseFleet([...WORKER, `--pattern-timeout-ms=${t}`]).map((i) => (i.command === "worker" ? i.flags.patternTimeoutMs : null));
        const run = parseInvocation(["run", "p.md", "--agent", "a", `--pattern-timeout-ms=${t}`]).map((i) =>
          i.command === "run" ? i.flags.patternTimeoutMs : null,
        );
        expect(worker.isOk() ? { ok: worker.value } : { err: worker.error }).toEqual(run.isOk() ? { ok: run.value } : { err: run.error });
        if (worker.isOk()) expect(worker.value).toBe(Number(t));
      }),
    );
  });

  it("takes an --executor-id exactly when dbosRunner takes it as executorId, and never throws", () => {
    const id = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:@/ -]{1,12}$/), fc.constantFrom("local", "Local", "local-1"), fc.string({ minLength: 1 }));
    const ports = () => ({}) as never;
    fc.assert(
      fc.property(id, (t) => {
        const flag = parseFleet(["worker", ...URL, "--app-version", "v", "--agent", "a", `--executor-id=${t}`]);
        const option = checkOptions({ databaseUrl: "postgresql://db/decay", executorId: t, appVersion: "v", ports });
        expect(flag.isOk(), t).toBe(option.isOk());
        if (flag.isOk()) expect(flag.value).toMatchObject({ flags: { executorId: t } });
        else expect(flag.error).toMatchObject({ code: "usage", flag: "--executor-id" });
      }),
    );
  });

  it("takes an --app-version exactly when dbosRunner takes it as appVersion, never one with spaces around it", () => {
    const version = fc.oneof(fc.constantFrom("v1", " v1", "v1 ", "v\t1", "2026.12.1", "v1\n", "\u00a0v1"), fc.string());
    const ports = () => ({}) as never;
    fc.assert(
      fc.property(version, (t) => {
        const flag = parseFleet(["worker", ...URL, "--executor-id", "w1", "--agent", "a", `--app-version=${t}`]);
        const option = checkOptions({ databaseUrl: "postgresql://db/decay", executorId: "w1", appVersion: t, ports });
        expect(flag.isOk(), JSON.stringify(t)).toBe(option.isOk());
        expect(flag.isOk(), JSON.stringify(t)).toBe(t !== "" && t.trim() === t && !/[\u0000-\u001f\u007f]/.test(t));
        if (flag.isOk()) expect(flag.value).toMatchObject({ flags: { appVersion: t } });
        else expect(flag.error).toMatchObject({ code: "usage", flag: "--app-version" });
      }),
    );
  });

  it("reads enqueue and runs, show ID included", () => {
    expect(parseFleet(["enqueue", "p.plan.md", "--repo", "https://git.example/r.git", ...URL, "--json"])._unsafeUnwrap()).toMatchObject({
      command: "enqueue",
      flags: { file: "p.plan.md", repo: "https://git.example/r.git", json: true },
    });
    expect(parseFleet(["runs", ...URL])._unsafeUnwrap()).toEqual({ command: "runs", databaseUrl: "postgresql://db/decay", id: null, json: false });
    expect(parseFleet(["runs", "show", "p-123", ...URL, "--json"])._unsafeUnwrap()).toEqual({
      command: "runs",
      databaseUrl: "postgresql://db/decay",
      id: "p-123",
      json: true,
    });
  });

  it.each([
    [["worker", ...URL, "--app-version", "v", "--agent", "a"], "--executor-id", /decay worker needs --executor-id/],
    [["worker", ...URL, "--executor-id", "w", "--agent", "a"], "--app-version", /needs --app-version/],
    [["worker", ...URL, "--executor-id", "w", "--app-version", "v"], "--agent", /needs --agent/],
    [["worker", ...URL, "--executor-id", "w", "--app-version", "v", "--agent", "a", "--concurrency", "0"], "--concurrency", /positive integer/],
    [["worker", ...URL, "--executor-id", "local", "--app-version", "v", "--agent", "a"], "--executor-id", /--executor-id must not be DBOS's default `local`/],
    [
      ["worker", ...URL, "--executor-id", "w/1", "--app-version", "v", "--agent", "a"],
      "--executor-id",
      /--executor-id may hold letters, digits and \. _ : @ - only, not "w\/1"/,
    ],
    [["enqueue", "p.plan.md", ...URL], "--repo", /needs --repo/],
    [["enqueue", ...URL, "--repo", "r"], "enqueue", /takes one PLAN.md/],
    [["enqueue", "p.plan.md", ...URL, "--repo", "r", "--queue", "decay-runs@w1"], "--queue", /letters, digits and \. _ - only, not "decay-runs@w1"/],
    [["worker", ...URL, "--executor-id", "w", "--app-version", "v", "--agent", "a", "--queue", "a b"], "--queue", /--queue may hold/],
    [["runs", "list", ...URL], "runs", /takes nothing or show ID/],
    [["runs"], "--database-url", /needs --database-url/],
    [["runs", ...URL, "--agent", "x"], "--agent", /not an option of decay runs/],
  ])("refuses %j naming %s", (argv, flag, message) => {
    const fault = parseFleet(argv)._unsafeUnwrapErr();
    expect(fault.flag).toBe(flag);
    expect(fault.message).toMatch(message);
  });
});
