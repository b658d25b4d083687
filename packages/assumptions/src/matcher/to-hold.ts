import { Report, type ReportRow } from "../core/model.js";

/** What a matcher returns to vitest: whether it passed and the message for a failure. */
export interface HoldResult {
  readonly pass: boolean;
  readonly message: () => string;
}

function rowLine(row: ReportRow): string {
  return `line ${row.line}: ${row.kind} ${row.path} - ${row.detail}`;
}

function what(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value).slice(0, 40)}`;
}

/**
 * Parses the received value as a Report and checks it is coherent (counts agree with rows).
 * A value that is not one is a mistake in the test, so it is thrown: it fails even under `.not`.
 */
function asReport(received: unknown): Report {
  const parsed = Report.safeParse(received);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new TypeError(`toHold() expects a Report from checkTree(); received ${what(received)} (${issue?.message ?? "invalid"}${where})`);
  }
  const r = parsed.data;
  const diverged = r.rows.filter((row) => row.status === "diverge").length;
  const coherent =
    r.checked === r.rows.length && r.diverged === diverged && r.held === r.rows.length - diverged && (r.verdict === "holds") === (diverged === 0);
  if (!coherent) throw new TypeError("toHold() received a Report whose verdict and counts disagree with its rows");
  return r;
}

/**
 * The `toHold` matcher body: passes only when the report's verdict is `holds` over at least one
 * row. The failure message lists every diverged row as `line N: kind path - detail`.
 */
export function toHold(received: unknown): HoldResult {
  const report = asReport(received);
  const diverged = report.rows.filter((row) => row.status === "diverge");
  const pass = report.verdict === "holds" && report.rows.length > 0;
  const message = (): string => {
    if (pass) return `expected the plan not to hold against ${report.root}, but all ${report.checked} assumption(s) held`;
    if (report.rows.length === 0) return `expected the plan to hold against ${report.root}, but it checked no assumptions`;
    const lines = diverged.map((row) => `  ${rowLine(row)}`);
    return [`expected the plan to hold against ${report.root}, but ${diverged.length} of ${report.checked} assumption(s) diverged:`, ...lines].join("\n");
  };
  return { pass, message };
}
