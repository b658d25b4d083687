import { isPrintableAscii } from "../core/unicode/fold.js";
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
  lines.push(
    `CHECKED ${report.checked} assumption(s) against ${visible(report.root)} - ${report.held} held, ${report.diverged} diverged`,
  );
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

/** Escapes a workflow-command message (GitHub: `%`, CR and LF). */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a workflow-command property value (the message escapes plus `:` and `,`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** Where an annotation points: the assumptions file as given (absent for stdin) and a line. */
export interface AnnotationTarget {
  readonly file?: string;
  readonly line?: number;
}

/** One `::error` workflow command. */
export function annotation(target: AnnotationTarget, message: string): string {
  const props: string[] = [];
  if (target.file !== undefined) props.push(`file=${escapeProperty(target.file)}`);
  if (target.line !== undefined) props.push(`line=${target.line}`);
  const head = props.length === 0 ? "::error" : `::error ${props.join(",")}`;
  return `${head}::${escapeData(message)}\n`;
}

/** One annotation per diverged row, in input order (printed before the human report). */
export function renderAnnotations(report: Report, file: string | undefined): string {
  return report.rows
    .filter((row) => row.status === "diverge")
    .map((row) => annotation(file === undefined ? { line: row.line } : { file, line: row.line }, row.detail))
    .join("");
}
