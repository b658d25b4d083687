import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AgentReply, AgentRequest } from "./protocol.js";

// The example payloads of docs/agent-protocol.md: every block that is whole JSON (the `fix`
// request elides its brief and freeze with `…`) must be a request or a reply the run accepts.
const page = readFileSync(fileURLToPath(new URL("../../../../docs/agent-protocol.md", import.meta.url)), "utf8");
const blocks = [...page.matchAll(/^```json\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe("docs/agent-protocol.md's examples", () => {
  it("are requests and replies the protocol's schemas accept", () => {
    const whole = blocks.map(parsed).filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null);
    expect(whole.length).toBeGreaterThanOrEqual(7);
    for (const value of whole) {
      const schema = "role" in value ? AgentRequest : AgentReply;
      const checked = schema.safeParse(value);
      expect(checked.success, `${JSON.stringify(value).slice(0, 80)}: ${checked.error?.message ?? ""}`).toBe(true);
    }
  });
});
