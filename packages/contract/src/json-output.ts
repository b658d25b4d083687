// What `decay-contract compile --json` and `check --json` print: the value after its `$schema` (the
// `$id` of the shipped JSON Schema it follows) and the output format's `version`.
import { z } from "zod";
import { Contract, type Finding, Findings } from "./model.js";

/** The `$id` of schemas/contract.schema.json: the `$schema` of `compile --json`. */
export const CONTRACT_SCHEMA_ID = "https://unpkg.com/@decay/contract/schemas/contract.schema.json";
/** The `$id` of schemas/findings.schema.json: the `$schema` of `check --json`. */
export const FINDINGS_SCHEMA_ID = "https://unpkg.com/@decay/contract/schemas/findings.schema.json";

/**
 * A contract as JSON. `$schema` and `version` are optional so that a bare `Contract` (what
 * `compileContract` returns and `runPlan` takes) still validates; `compile --json` always prints both.
 */
export const ContractJson = z
  .object({ $schema: z.literal(CONTRACT_SCHEMA_ID).optional(), version: z.literal(1).optional(), ...Contract.shape })
  .describe("A decay acceptance contract (docs/contract-format.md); the only thing that decides done. compile --json prints $schema and version first.");
/** A contract as JSON. */
export type ContractJson = z.infer<typeof ContractJson>;

/** What `decay-contract check --json` prints: the findings, after `$schema` and `version`. */
export const FindingsJson = z
  .object({ $schema: z.literal(FINDINGS_SCHEMA_ID), version: z.literal(1), findings: Findings })
  .strict()
  .describe("decay-contract check --json: refuse stops a run before anything is spent; warn is printed.");
/** What `decay-contract check --json` prints. */
export type FindingsJson = z.infer<typeof FindingsJson>;

/** The contract as `compile --json` prints it: `$schema` and `version` first. */
export function contractJson(contract: Contract): ContractJson {
  return { $schema: CONTRACT_SCHEMA_ID, version: 1, ...contract };
}

/** The findings as `check --json` prints them. */
export function findingsJson(findings: readonly Finding[]): FindingsJson {
  return { $schema: FINDINGS_SCHEMA_ID, version: 1, findings: [...findings] };
}
