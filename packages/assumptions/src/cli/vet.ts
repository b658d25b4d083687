import { err, ok, type Result } from "neverthrow";
import type { CliFault } from "./faults.js";
import type { Report } from "./gate.js";

function consistent(report: Report): string | undefined {
  const held = report.rows.filter((r) => r.status === "hold").length;
  const diverged = report.rows.length - held;
  if (report.rows.length === 0) return "a report with no rows is never a verdict";
  if (report.checked !== report.rows.length || report.held !== held || report.diverged !== diverged) {
    return "the counts do not match the rows";
  }
  return report.verdict === (diverged === 0 ? "holds" : "diverged") ? undefined : "the verdict does not match the rows";
}

/**
 * Vets a report before any of it is printed: it must agree with itself (counts equal the rows,
 * the verdict follows from them, at least one row). A mismatch is a bug, exit 2.
 */
export function vetReport(report: Report): Result<Report, CliFault> {
  const problem = consistent(report);
  return problem === undefined ? ok(report) : err({ code: "report-invalid", reason: problem });
}
