// What the fleet commands print with --json: `decay enqueue` one object, `decay runs` one line per
// run, `decay runs show ID` one object; each starts with `$schema` (the `$id` of
// schemas/fleet-output.schema.json) and the output format's `version`.
import { z } from "zod";
import { RunSummary } from "./status.js";

/** The `$id` of schemas/fleet-output.schema.json: the `$schema` of every fleet `--json` line. */
export const FLEET_OUTPUT_SCHEMA_ID = "https://unpkg.com/@decay/executor/schemas/fleet-output.schema.json";

const head = { $schema: z.literal(FLEET_OUTPUT_SCHEMA_ID), version: z.literal(1) };

/**
 * `decay enqueue --json`: the run id, whether the same run was already on the queue (it runs once),
 * and the run ids of earlier attempts that ended with a fault, oldest first (empty when none).
 */
export const EnqueueJson = z.object({ ...head, id: z.string(), existed: z.boolean(), retried: z.array(z.string()) }).strict();

/**
 * A line of `decay runs --json` (a run's summary), or the object of `decay runs show ID --json`: the
 * summary and more (dir, branch, result, stepNames; docs/fleet.md), which the schema leaves open.
 */
export const FleetOutput = z.union([EnqueueJson, RunSummary.extend(head).loose()]);
/** Any one fleet `--json` line. */
export type FleetOutput = z.infer<typeof FleetOutput>;

/** `value` as a fleet `--json` line: `$schema` and `version` first. */
export function fleetJson(value: object): string {
  return `${JSON.stringify({ $schema: FLEET_OUTPUT_SCHEMA_ID, version: 1, ...value })}\n`;
}
