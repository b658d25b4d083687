// What `decay preflight --json` and `decay verify --json` print: one object, the verdict of every
// included stage at one commit, after `$schema` (the `$id` of schemas/verification.schema.json)
// and the output format's `version`.
import { z } from "zod";

/** The `$id` of schemas/verification.schema.json: the `$schema` of `decay preflight|verify --json`. */
export const VERIFICATION_SCHEMA_ID = "https://unpkg.com/@decay/executor/schemas/verification.schema.json";

/** One stage's verdict: green or not, its ledger file, the rows that failed and their signature. */
export const StageVerdictJson = z
  .object({
    green: z.boolean(),
    ledger: z.string(),
    failing: z.array(z.string()),
    signature: z.string().nullable(),
  })
  .strict();
/** One stage's verdict. */
export type StageVerdictJson = z.infer<typeof StageVerdictJson>;

/** `decay preflight|verify --json`: the commit verified, each stage's verdict, the green stages, REPORT.md's path (verify) or null. */
export const VerificationOutput = z
  .object({
    $schema: z.literal(VERIFICATION_SCHEMA_ID),
    version: z.literal(1),
    command: z.enum(["preflight", "verify"]),
    commit: z.string(),
    kind: z.enum(["preflight", "final"]),
    stages: z.record(z.string(), StageVerdictJson),
    green: z.array(z.string()),
    report: z.string().nullable(),
  })
  .strict()
  .meta({ title: "decay preflight|verify --json output", description: "One object per verification; see docs/executor-cli.md." });
/** `decay preflight|verify --json` output. */
export type VerificationOutput = z.infer<typeof VerificationOutput>;
