import { err, ok, type Result } from "neverthrow";
import { isPrintableAscii } from "../core/unicode/fold.js";
import type { CliFault } from "./faults.js";
import type { Report, ReportRow } from "./gate.js";

/**
 * Makes tree-supplied text safe for a terminal: control and invisible format characters are
 * shown as `\u{XXXX}` instead of being written raw (a file name could otherwise redraw the report).
 */
export function visible(text: string): string {
  if (isPrintableAscii(text)) return text;
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`);
}

function rowLine(row: ReportRow): string {
  const head = `${row.status === "hold" ? "HOLD   " : "DIVERGE"} line ${row.line}: ${row.kind} ${visible(row.path)}`;
  return row.status === "hold" ? head : `${head} - ${visible(row.detail)}`;
}

/** The human report: one line per row, the CHECKED count line, then PLAN HOLDS or HALT. */
export function renderHuman(report: Report): string {
  const lines = report.rows.map(rowLine);
  lines.push(`CHECKED ${report.checked} assumption(s) against ${visible(report.root)} - ${report.held} held, ${report.diverged} diverged`);
  lines.push(
    report.verdict === "holds"
      ? "PLAN HOLDS: every written assumption still describes this tree; the batch may proceed."
      : "HALT: the plan no longer describes this tree. Stop the batch and re-plan from the tree as it is now.",
    // The last line's newline, by the join: appending it to the joined text would make a second
    // copy of the whole report when it is written.
    "",
  );
  return lines.join("\n");
}

/**
 * A report rendered as one text; one longer than the engine's longest string (hundreds of
 * thousands of rows of long paths) is a `report-too-large` fault, never an internal error.
 * Any other exception is not this function's to judge, and goes on.
 */
export function rendered<T>(report: Report, render: () => T): Result<T, CliFault> {
  try {
    return ok(render());
  } catch (e) {
    // The engine's words for a string or array past its longest (a stack overflow is a RangeError too, and a bug).
    if (e instanceof RangeError && /^Invalid (string|array|typed array) length/.test(e.message)) {
      return err({ code: "report-too-large", rows: report.rows.length, reason: e.message });
    }
    throw e;
  }
}
