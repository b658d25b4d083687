// The contract's own record of itself: the stage count and the body's SHA-256 (format 2).
import { err, ok, type Result } from "neverthrow";
import { planSha256 } from "./compile.js";
import type { ContractFault } from "./fault.js";

/** What the front matter recorded about the body, and the line it recorded it on. */
export interface Recorded {
  readonly stages: number;
  readonly bodySha256: string;
  /** The 1-based line of `stages:`; `body_sha256:` is on the next one. */
  readonly line: number;
}

/** The body's digest against the recorded one; a mismatch names the field and both values. */
export function bodyMismatch(recorded: Recorded, body: string): ContractFault | undefined {
  const found = planSha256(body);
  if (found === recorded.bodySha256) return undefined;
  return { code: "contract-integrity", line: recorded.line + 1, field: "body_sha256", recorded: recorded.bodySha256, found };
}

/**
 * Verifies a parsed body against the front matter: the stage count first (a contract cut at a
 * stage boundary says how many stages are missing), then the digest (any other edit).
 */
export function verifyBody(recorded: Recorded, body: string, stages: number): Result<void, ContractFault> {
  if (stages !== recorded.stages) {
    return err({ code: "contract-integrity", line: recorded.line, field: "stage count", recorded: String(recorded.stages), found: String(stages) });
  }
  const mismatch = bodyMismatch(recorded, body);
  return mismatch === undefined ? ok(undefined) : err(mismatch);
}
