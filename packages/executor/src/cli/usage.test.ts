import { describe, expect, it } from "vitest";
import { OPTIONS } from "./args.js";
import { FLEET_FLAGS } from "./fleet-args.js";
import { HELP } from "./usage.js";

// The usage block of each command: from its `decay NAME` line up to the next command's.
const blocks = HELP.slice(0, HELP.indexOf("\nCommands:")).split(/\n {2}decay /);

describe("decay --help", () => {
  it("lists every flag a fleet command takes on that command's usage lines", () => {
    for (const [command, flags] of Object.entries(FLEET_FLAGS)) {
      const block = blocks.find((b) => b.startsWith(`${command} `)) ?? "";
      for (const flag of flags) expect(block, `decay ${command}`).toContain(`--${flag}`);
    }
  });

  it("explains every flag of run, preflight and verify under Options", () => {
    const options = HELP.slice(HELP.indexOf("\nOptions:"), HELP.indexOf("\nExit:"));
    for (const flag of Object.keys(OPTIONS).filter((f) => f !== "help" && f !== "version")) {
      expect(options, `--${flag}`).toMatch(new RegExp(`\\n {2}--${flag}\\b`));
    }
  });
});
