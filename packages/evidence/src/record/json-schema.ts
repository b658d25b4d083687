import { z } from "zod";
import { EvidenceRecord } from "./schema.js";

/**
 * The JSON Schema of `evidence-record-v1` (draft 2020-12), as published in
 * `docs/evidence-record.schema.json`. It states the shape; the rules JSON Schema cannot say
 * (Python whitespace, code-point lengths, cross-field identity, credentials) are in the docs.
 */
export function evidenceRecordJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(EvidenceRecord, { unrepresentable: "any" }) as Record<string, unknown>;
}
