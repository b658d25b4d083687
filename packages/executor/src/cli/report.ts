// `decay report DIR`: print a run's REPORT.md, or its report.json with --json. DIR is the run's
// workspace (`.plan-runs/<slug>`) or a repository holding exactly one.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { readBounded } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";
import type { CliFault } from "./fault.js";
import { type CliIo, say } from "./io.js";

function workspaceOf(dir: string, given: string): Result<string, CliFault> {
  const has = (d: string) => {
    try {
      return statSync(join(d, "REPORT.md")).isFile();
    } catch {
      return false;
    }
  };
  if (has(dir)) return ok(dir);
  let runs: string[] = [];
  try {
    runs = readdirSync(join(dir, ".plan-runs")).filter((r) => has(join(dir, ".plan-runs", r)));
  } catch {
    // not a repository with runs either
  }
  if (runs.length === 1) return ok(join(dir, ".plan-runs", runs[0] as string));
  const reason =
    runs.length > 1
      ? `holds several runs (${runs.join(", ")}): name one, e.g. ${join(given, ".plan-runs", runs[0] as string)}`
      : "holds no REPORT.md (neither a run's workspace nor a repository with one run)";
  return err({ code: "read-failed", file: given, reason });
}

/** Print REPORT.md (or report.json); exit 0. */
export async function reportCommand(io: CliIo, dir: string, json: boolean): Promise<Result<number, CliFault>> {
  const ws = workspaceOf(resolve(io.cwd, dir), dir);
  if (ws.isErr()) return err(ws.error);
  const file = join(ws.value, json ? "report.json" : "REPORT.md");
  // Bounded, and a FIFO, device or socket in its place is refused before it is opened.
  const read = await readBounded(io, file);
  if (read.isErr()) return err({ code: "read-failed", file, reason: read.error.reason });
  const text = new TextDecoder().decode(read.value);
  const failed = await say(io, text.endsWith("\n") ? text : `${text}\n`);
  return failed === null ? ok(0) : err({ code: "write-failed", file: "<stdout>", reason: failed });
}
