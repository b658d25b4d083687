import { z } from "zod";
import { CONTENT_FIELDS } from "../record/schema.js";
import { Envelope } from "./envelope.js";

type Schema = { properties: { record: { properties: Record<string, unknown> } } };

/**
 * The JSON Schema (draft 2020-12) of a `<key_hash>.json` envelope. It states the shape; the
 * cross-field rules (content hash, path, canonical URL host) are in docs/evidence-store.md.
 */
export function envelopeJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(Envelope, { unrepresentable: "any" }) as Record<string, unknown>;
}

/**
 * The envelope schema as docs/evidence-store.md prints it: the record's 12 content fields
 * are left to schemas/evidence-record.schema.json, only their names stay in `required`.
 */
export function envelopeJsonSchemaForDocs(): Record<string, unknown> {
  const schema = envelopeJsonSchema() as Schema & Record<string, unknown>;
  const props = schema.properties.record.properties;
  schema.properties.record.properties = Object.fromEntries(Object.entries(props).filter(([k]) => !(CONTENT_FIELDS as readonly string[]).includes(k)));
  return schema;
}
