// What `decay-evidence ... --json` prints: one canonical JSON object per command (keys sorted, so
// `$schema` comes first), each carrying `$schema` (the `$id` of schemas/cli-output.schema.json)
// and `version` (the version of this output format).
import { z } from "zod";
import { canonicalJson } from "../record/canonical.js";
import { type JsonValue, jsonInt } from "../record/number.js";

/** The `$id` of schemas/cli-output.schema.json: the `$schema` of every `decay-evidence --json` output. */
export const CLI_OUTPUT_SCHEMA_ID = "https://unpkg.com/@decay/evidence/schemas/cli-output.schema.json";

/** A JSON object as the CLI builds it before printing (integers as `jsonInt`). */
export type JsonObject = { readonly [key: string]: JsonValue };

const envelope = { $schema: z.literal(CLI_OUTPUT_SCHEMA_ID), version: z.literal(1) };
const hex = z.string().regex(/^[0-9a-f]{64}$/);
const out = <T extends z.ZodRawShape>(title: string, shape: T) =>
  z
    .object({ ...envelope, ...shape })
    .strict()
    .meta({ title });
const storeShape = { root: z.string(), legacy: z.boolean(), unused_legacy: z.string().nullable() };

const StatusRecord = z
  .object({
    path: z.string(),
    evidence_status: z.enum(["evidence-pending", "published"]),
    repo: z.string(),
    pr: z.number().int(),
    task: z.string(),
    attempt: z.string(),
    content_sha256: hex,
    canonical_url: z.string().nullable(),
    write_state: z.enum(["never", "uncertain", "confirmed"]),
    reason: z.string().nullable(),
    snapshot: z.enum(["ok", "missing", "corrupt", "unreadable"]),
    /** Only with `snapshot: "unreadable"`: why it could not be read. */
    snapshot_fault: z
      .object({ code: z.string().min(1), message: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict();

/** Everything `decay-evidence --json` can print: one object per command, or a fault. */
export const CliOutput = z
  .union([
    out("hash", { content_sha256: hex, key_hash: hex, body: z.string().optional() }),
    out("slug", { slug: z.string() }),
    out("prepare", { path: z.string(), ...storeShape }),
    out("status", {
      ...storeShape,
      records: z.array(StatusRecord),
      unreadable: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() }).strict()),
    }),
    out("publish: published", {
      evidence_status: z.literal("published"),
      canonical_url: z.string(),
      path: z.string(),
      reason: z.string().optional(),
      /** With `reason`: what stopped this run from confirming the record, in words. */
      detail: z.string().optional(),
    }),
    out("publish: still pending", {
      evidence_status: z.literal("evidence-pending"),
      reason: z.string(),
      path: z.string(),
      /** What stopped this run, in words (an HTTP status, the author expected and found); absent when the run did not say. */
      detail: z.string().optional(),
    }),
    out("--help", { help: z.string() }),
    out("--version", { name: z.literal("decay-evidence"), package_version: z.string() }),
    out("fault (exit 2)", { fault: z.object({ code: z.string().min(1), message: z.string().min(1) }).strict() }),
  ])
  .meta({ title: "decay-evidence --json output", description: "One canonical JSON object per command; see docs/evidence.md, section 4." });
/** Everything `decay-evidence --json` can print. */
export type CliOutput = z.infer<typeof CliOutput>;

/** The JSON Schema of `--json` output, as committed in schemas/cli-output.schema.json. */
export function cliOutputJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(CliOutput) as Record<string, unknown>;
  return { $schema, $id: CLI_OUTPUT_SCHEMA_ID, ...rest };
}

/** One `--json` line: the object with `$schema` and `version` added, as canonical JSON and a newline. */
export function jsonLine(value: JsonObject): string {
  return `${canonicalJson({ $schema: CLI_OUTPUT_SCHEMA_ID, version: jsonInt(1), ...value })}\n`;
}
