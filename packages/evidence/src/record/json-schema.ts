import { z } from "zod";
import { EvidenceRecord } from "./schema.js";

/** Where the published JSON Schema of `evidence-record-v1` says it lives (its `$id`). */
export const EVIDENCE_RECORD_SCHEMA_ID = "https://unpkg.com/@decay/evidence/schemas/evidence-record.schema.json";

/**
 * The JSON Schema of `evidence-record-v1` (draft 2020-12), as published in
 * `schemas/evidence-record.schema.json` (the package's `./schemas/*` subpath). It states the shape; the rules JSON Schema cannot say
 * (Python whitespace, code-point lengths, cross-field identity, credentials) are in the docs.
 */
export function evidenceRecordJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(EvidenceRecord, { unrepresentable: "any" }) as Record<string, unknown>;
  return { $schema, $id: EVIDENCE_RECORD_SCHEMA_ID, ...rest };
}
