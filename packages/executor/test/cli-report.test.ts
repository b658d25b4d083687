// `decay report DIR` through the built bin: a report that is not one (cut short, NUL bytes, not
// UTF-8, not a run report) is exit 2 naming the file, never printed (under --json, the fault object).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { CLI_FAULT_SCHEMA_ID } from "../src/index.js";
import { REPORT } from "./run-report-fixture.js";
import { decay } from "./cli-process.js";

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
  mkdirSync(join(dir, "ws"));
  writeFileSync(join(dir, "ws/REPORT.md"), "# Run report\n");
  writeFileSync(join(dir, "ws/report.json"), `${JSON.stringify(REPORT, null, 2)}\n`);
});

describe("decay report", () => {
  it("prints a report that is one, exit 0", async () => {
    expect(await decay(["report", "ws"], dir)).toEqual({ code: 0, stdout: "# Run report\n", stderr: "" });
    const json = await decay(["report", "ws", "--json"], dir);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(REPORT);
  });

  it.each([
    ["cut short", '{"status":"gre', /^decay: ws\/report\.json: not a run report: not JSON \(.*\)\n$/],
    ["64 NUL bytes", "\0".repeat(64), /^decay: ws\/report\.json: not a run report: not JSON \(.*\)\n$/],
    ["a forged status", '{"status":"green"}', /^decay: ws\/report\.json: not a run report: field version: .*\n$/],
    [
      "whose green status its stages contradict",
      JSON.stringify({ ...REPORT, status: "green", stages: [{ ...REPORT.stages[0], optional: false, final: "red", state: "parked" }] }),
      /^decay: ws\/report\.json: not a run report: status green, but stage S1 is not \(final red, state parked\): .*\n$/,
    ],
    [
      "not UTF-8",
      Buffer.from([0x7b, 0xff, 0x7d]),
      /^decay: ws\/report\.json: not a run report: not UTF-8 text: byte 0xFF at byte offset 1 cannot be decoded\n$/,
    ],
  ])("--json refuses report.json %s, exit 2", async (_, content, message) => {
    writeFileSync(join(dir, "ws/report.json"), content);
    const ran = await decay(["report", "ws", "--json"], dir);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(JSON.parse(ran.stdout)).toEqual({
      $schema: CLI_FAULT_SCHEMA_ID,
      version: 1,
      fault: { code: "report-invalid", message: ran.stderr.slice("decay: ".length, -1) },
    });
  });

  it.each([
    ["emptied", "", "empty: a run or verification writes its report whole"],
    ["cut short mid-line", "# Run report: p\n\nStatus: **gr", "does not end with a line feed: cut short"],
    ["padded with NULs after its first lines", `# Run report: p\n${"\u0000".repeat(64)}`, "holds a NUL character at character 16: cut short or damaged"],
    ["with a NUL in a line", "# Run report: p\nok\u0000\n", "holds a NUL character at character 18: cut short or damaged"],
    ["not a report at all", "status: green\n", "does not start with a report's `# ` heading"],
  ])("refuses a REPORT.md %s, naming it, never printing it", async (_, text, reason) => {
    writeFileSync(join(dir, "ws/REPORT.md"), text);
    const ran = await decay(["report", "ws"], dir);
    expect(ran).toEqual({ code: 2, stdout: "", stderr: `decay: ws/REPORT.md: ${reason}\n` });
  });

  it("refuses a REPORT.md that is not UTF-8, naming it, never printing U+FFFD", async () => {
    writeFileSync(join(dir, "ws/REPORT.md"), Buffer.from([0xff, 0xfe, 0x00]));
    const ran = await decay(["report", "ws"], dir);
    expect(ran).toEqual({ code: 2, stdout: "", stderr: "decay: ws/REPORT.md: not UTF-8 text: byte 0xFF at byte offset 0 cannot be decoded\n" });
  });

  it("says a DIR that is missing or a file is no directory, as other commands say it", async () => {
    expect(await decay(["report", "nope"], dir)).toEqual({ code: 2, stdout: "", stderr: "decay: nope: cannot read: no such directory\n" });
    expect(await decay(["report", "ws/REPORT.md"], dir)).toEqual({ code: 2, stdout: "", stderr: "decay: ws/REPORT.md: cannot read: it is not a directory\n" });
    expect(await decay(["report", "ws/REPORT.md/x"], dir)).toEqual({
      code: 2,
      stdout: "",
      stderr: "decay: ws/REPORT.md/x: cannot read: a part of the path is not a directory\n",
    });
  });
});
