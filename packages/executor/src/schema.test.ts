import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AgentReply, AgentRequest } from "./agent/protocol.js";
import { CliFaultOutput, LedgerEntry, RunEventLine, RunReport } from "./schema.js";
import { VerificationOutput } from "./verification.js";

const doc = (name: string): unknown => JSON.parse(readFileSync(fileURLToPath(new URL(`../schemas/${name}`, import.meta.url)), "utf8"));

/** Where the published file says it lives (its `$id`): the package's `./schemas/*` subpath. */
const idOf = (name: string): string => `https://unpkg.com/@decay/executor/schemas/${name}`;

describe("the JSON Schemas in schemas/ cannot drift from the zod schemas", () => {
  test.each([
    ["run-report.schema.json", RunReport],
    ["ledger-entry.schema.json", LedgerEntry],
    ["run-event.schema.json", RunEventLine],
    ["agent-request.schema.json", AgentRequest],
    ["agent-reply.schema.json", AgentReply],
    ["verification.schema.json", VerificationOutput],
    ["cli-fault.schema.json", CliFaultOutput],
  ] as const)("schemas/%s", (name, schema) => {
    expect(doc(name)).toEqual({ $id: idOf(name), ...z.toJSONSchema(schema) });
  });
});
