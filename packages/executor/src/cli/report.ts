// `decay report DIR`: print a run's REPORT.md, or its report.json with --json. DIR is the run's
// workspace (`.plan-runs/<slug>`) or a repository holding exactly one.
import { lstatSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readBounded } from "@decay/cli-kit";
import { decodeStrictUtf8, firstDuplicateKey } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import { badUtf8Said } from "../fault.js";
import { holdsBackGreen } from "../run/report.js";
import { RunReport } from "../schema.js";
import type { CliFault } from "./fault.js";
import { type CliIo, notADirectory, say } from "./io.js";

/** The workspace: its absolute path, and its name as the user wrote DIR (`ws`, `./.plan-runs/p`). */
interface Workspace {
  readonly path: string;
  readonly named: string;
}

function workspaceOf(dir: string, given: string, report: string): Result<Workspace, CliFault> {
  // DIR must be a directory: one missing or a file is said so, not searched for a report.
  const notDir = notADirectory(dir);
  if (notDir !== null) return err({ code: "read-failed", file: given, reason: notDir });
  // Any entry named as the report asked for (REPORT.md, or report.json) makes a workspace: one that
  // is no regular file (a FIFO, a directory, a dangling link) is then refused by the reader, which
  // says what it is.
  const has = (d: string, name = report) => {
    try {
      lstatSync(join(d, name));
      return true;
    } catch {
      return false;
    }
  };
  if (has(dir)) return ok({ path: dir, named: given });
  let runs: string[] = [];
  let unended: string[] = [];
  try {
    const all = readdirSync(join(dir, ".plan-runs"));
    runs = all.filter((r) => has(join(dir, ".plan-runs", r)));
    unended = all.filter((r) => has(join(dir, ".plan-runs", r), "unfinished.txt"));
  } catch {
    // not a repository with runs either
  }
  if (runs.length === 1) return ok({ path: join(dir, ".plan-runs", runs[0] as string), named: join(given, ".plan-runs", runs[0] as string) });
  // A run clears the report before it starts: one that has not ended yet has none.
  // DIR itself only when it is a workspace (in `.plan-runs`): a file of that name elsewhere is no marker.
  const inWorkspace = basename(dirname(dir)) === ".plan-runs" && has(dir, "unfinished.txt");
  const started = inWorkspace ? [given] : runs.length === 0 ? unended.map((r) => join(given, ".plan-runs", r)) : [];
  const reason =
    runs.length > 1
      ? `holds several runs (${runs.join(", ")}): name one, e.g. ${join(given, ".plan-runs", runs[0] as string)}`
      : started.length > 0
        ? `holds no ${report}: a run started in ${started.join(", ")} has not ended (it is running, or was stopped before its report); run it again with decay run to resume it`
        : `holds no ${report} (neither a run's workspace nor a repository with one run)`;
  return err({ code: "read-failed", file: given, reason });
}

/** The first field of `input` that `parsed` (the schema's output, which drops fields it does not name) lacks, as a path; null when none. */
function extraField(input: unknown, parsed: unknown, path: string): string | null {
  if (typeof input !== "object" || input === null || typeof parsed !== "object" || parsed === null) return null;
  for (const key of Object.keys(input)) {
    const at = Array.isArray(input) ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;
    if (!Object.hasOwn(parsed, key)) return at;
    const inner = extraField((input as Record<string, unknown>)[key], (parsed as Record<string, unknown>)[key], at);
    if (inner !== null) return inner;
  }
  return null;
}

/**
 * report.json's text when it is a run report: JSON that run-report.schema.json accepts, with no
 * field the schema does not name; else what is wrong with it.
 */
export function checkRunReport(text: string): Result<string, string> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err(`not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  // JSON.parse keeps a repeated key's last value: a reader keeping the first would see another report.
  const repeated = firstDuplicateKey(text);
  if (repeated !== undefined) return err(`the key ${JSON.stringify(repeated.key)} is repeated (at character ${repeated.at}): a run writes each once`);
  const parsed = RunReport.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = (issue?.path ?? []).map(String).join(".");
    return err(`${at === "" ? "" : `field ${at}: `}${issue?.message ?? "does not match"} (run-report.schema.json)`);
  }
  const extra = extraField(json, parsed.data, "");
  if (extra !== null) return err(`field ${extra} is not in run-report.schema.json`);
  const contradiction = greenContradiction(parsed.data);
  return contradiction === null ? ok(text) : err(contradiction);
}

// A green status its own stages contradict is a forgery or an edit, never a run's word: a required
// stage not green, no stage green at all (a run that verified nothing), or an `end.green` other
// than the stages the final verification found green.
function greenContradiction(report: RunReport): string | null {
  if (report.status !== "green") return null;
  const held = report.stages.find(holdsBackGreen);
  if (held !== undefined) {
    return `status green, but stage ${held.id} is not (final ${held.final}, state ${held.state}): a run is green only when every required stage is`;
  }
  const green = report.stages.filter((s) => s.final === "green").map((s) => s.id);
  if (green.length === 0) return "status green, but no stage is green in the final verification: a run that verified nothing is never green";
  const said = report.end.green;
  if (said.length !== green.length || said.some((id, k) => id !== green[k])) {
    return `status green, but end.green (${said.join(", ") || "none"}) is not the stages green in the final verification (${green.join(", ")})`;
  }
  return null;
}

/**
 * REPORT.md's text when it is whole as `decay run` and `decay verify` write it: a `# ` heading
 * first, a line feed last, no NUL anywhere (what they write escapes control characters); else
 * what is wrong with it. A file emptied, cut short mid-line or padded with NULs by a crash or a
 * full disk is refused, not printed.
 */
export function checkReportMd(text: string): Result<string, string> {
  if (text === "") return err("empty: a run or verification writes its report whole");
  if (!text.startsWith("# ")) return err("does not start with a report's `# ` heading");
  const nul = text.indexOf("\u0000");
  if (nul !== -1) return err(`holds a NUL character at character ${nul}: cut short or damaged`);
  return text.endsWith("\n") ? ok(text) : err("does not end with a line feed: cut short");
}

/** The report's text: strict UTF-8 (never a U+FFFD in place of a bad byte), and a whole REPORT.md or a run report; else a fault naming the file. */
function reportText(file: string, bytes: Uint8Array, json: boolean): Result<string, CliFault> {
  const decoded = decodeStrictUtf8(bytes).mapErr((bad) => `not UTF-8 text: ${badUtf8Said(bytes, bad.start)}`);
  const text = decoded.andThen(json ? checkRunReport : checkReportMd);
  return text.mapErr((reason): CliFault => ({ code: "report-invalid", file, reason: json ? `not a run report: ${reason}` : reason }));
}

/** Print REPORT.md (or report.json, once checked against its schema); exit 0. */
export async function reportCommand(io: CliIo, dir: string, json: boolean): Promise<Result<number, CliFault>> {
  const name = json ? "report.json" : "REPORT.md";
  const ws = workspaceOf(resolve(io.cwd, dir), dir, name);
  if (ws.isErr()) return err(ws.error);
  const file = join(ws.value.named, name);
  // Bounded, and a FIFO, device or socket in its place is refused before it is opened.
  const read = await readBounded(io, join(ws.value.path, name));
  if (read.isErr()) return err({ code: "read-failed", file, reason: read.error.reason });
  const text = reportText(file, read.value, json);
  if (text.isErr()) return err(text.error);
  const failed = await say(io, text.value.endsWith("\n") ? text.value : `${text.value}\n`);
  return failed === null ? ok(0) : err({ code: "write-failed", file: "<stdout>", reason: failed });
}
