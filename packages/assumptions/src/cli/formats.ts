// The gate's report in the CI formats: GitHub annotations, SARIF 2.1.0 and JUnit XML, through the
// renderers every decay CLI shares. Each row is one item; a diverged row is an error.
import { renderAnnotations, renderJunit, renderSarif, repoRelative, type CheckItem, type ToolInfo } from "@decay/cli-kit";
import type { Report, ReportRow } from "./gate.js";
import { VERSION } from "./usage.js";

/** plan-decay as a SARIF tool: one rule per assumption kind. */
export const TOOL: ToolInfo = {
  name: "plan-decay",
  version: VERSION,
  informationUri: "https://www.npmjs.com/package/@decay/assumptions",
  rules: [
    { id: "exists", description: "An exists row: the path must be present in the tree." },
    { id: "absent", description: "An absent row: the path must not be present, in any spelling." },
    { id: "contains", description: "A contains row: the file must contain the literal." },
    { id: "lacks", description: "A lacks row: the file must not contain the literal." },
    { id: "unchanged", description: "An unchanged row: the file's normalised text must hash to the digest." },
  ],
};

/** The assumptions file as the CI formats name it: from its repository's root; undefined for standard input. */
export function repoPath(cwd: string, input: string): string | undefined {
  return input === "-" ? undefined : repoRelative(cwd, input);
}

function item(row: ReportRow, file: string | undefined, message: string): CheckItem {
  const base = { ruleId: row.kind, name: `line ${row.line}: ${row.kind} ${row.path}`, title: `${row.kind} ${row.path}`, line: row.line };
  const outcome = row.status === "hold" ? ("pass" as const) : ("error" as const);
  return file === undefined ? { ...base, outcome, message } : { ...base, outcome, message, file };
}

// Only diverged rows are annotated or become SARIF results: rows that held make no item at all.
function diverged(report: Report): ReportRow[] {
  return report.rows.filter((row) => row.status !== "hold");
}

/** One `::error` per diverged row at its line of `file`, titled with its kind and path. */
export function githubAnnotations(report: Report, file: string | undefined): string {
  return renderAnnotations(diverged(report).map((row) => item(row, file, row.detail)));
}

function items(rows: readonly ReportRow[], file: string | undefined): CheckItem[] {
  return rows.map((row) => item(row, file, `${row.kind} ${row.path}: ${row.detail}`));
}

/** The report as a SARIF 2.1.0 log: a result per diverged row at its line in the assumptions file. */
export function sarifReport(report: Report, file: string | undefined): string {
  return renderSarif(TOOL, items(diverged(report), file));
}

/** The report as JUnit XML: a test case per row, a failure per diverged row. */
export function junitReport(report: Report, file: string | undefined): string {
  return renderJunit("plan-decay", { name: file ?? "standard input", items: items(report.rows, file) });
}
