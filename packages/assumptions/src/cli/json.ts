import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
// Loaded only for --json (main imports this module lazily), so the human path never pays for zod.
import type { CliFault } from "./faults.js";
import { Report } from "../core/model.js";

/** Where the published JSON Schema of `--json` output says it lives (its `$id`). */
export const REPORT_SCHEMA_ID = "https://unpkg.com/@decay/assumptions/schemas/report.schema.json";

/** What every `--json` output starts with: the schema it follows and the format's version. */
const Envelope = { $schema: z.literal(REPORT_SCHEMA_ID), version: z.literal(1) };

/** What `--json` prints when the run reached a verdict: the report, in its envelope. */
export const JsonReport = z.object({ ...Envelope, ...Report.shape }).strict();
/** What `--json` prints when the run reached a verdict: the report, in its envelope. */
export type JsonReport = z.infer<typeof JsonReport>;

/** What `--json` prints when the run hit a fault instead of reaching a verdict. */
export const JsonFault = z
  .object({
    ...Envelope,
    fault: z
      .object({
        code: z.string().min(1),
        message: z.string().min(1),
        line: z.number().int().positive().optional(),
      })
      .strict(),
  })
  .strict();
/** What `--json` prints when the run hit a fault instead of reaching a verdict. */
export type JsonFault = z.infer<typeof JsonFault>;

/** Everything `plan-decay --json` can print: a report, or a fault. */
export const JsonOutput = z.union([JsonReport, JsonFault]).meta({
  title: "plan-decay --json output",
  description: "A report (exit 0 or 1), or a fault (exit 2). See docs/plan-decay-cli.md.",
});
/** Everything `plan-decay --json` can print: a report, or a fault. */
export type JsonOutput = z.infer<typeof JsonOutput>;

/** The JSON Schema of `--json` output, as committed in schemas/report.schema.json. */
export function jsonOutputSchema(): unknown {
  const { $schema, ...rest } = z.toJSONSchema(JsonOutput, { target: "draft-2020-12" });
  return { $schema, $id: REPORT_SCHEMA_ID, ...rest };
}

function serialise(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The report as JSON, validated against the zod schema first (a mismatch is never printed). */
export function renderJsonReport(report: Report): Result<string, CliFault> {
  const checked = JsonReport.safeParse({ $schema: REPORT_SCHEMA_ID, version: 1, ...report });
  if (!checked.success) return err({ code: "report-invalid", reason: z.prettifyError(checked.error) });
  return ok(serialise(checked.data));
}

/** A fault as JSON: its stable code, the sentence, and the line when it has one. */
export function renderJsonFault(code: string, message: string, line: number | undefined): string {
  const fault = line === undefined ? { code, message } : { code, message, line };
  return serialise(JsonFault.parse({ $schema: REPORT_SCHEMA_ID, version: 1, fault }));
}
