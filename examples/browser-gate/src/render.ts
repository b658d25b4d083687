// Shows the gate's reports: per tree, the overall verdict and one table row per assumption
// (line, kind, path, hold or diverge, detail). Data attributes carry the same facts for scripts.
import type { Checked } from "./gate.js";

function cell(row: HTMLTableRowElement, text: string, className?: string): void {
  const td = row.insertCell();
  td.textContent = text;
  if (className !== undefined) td.className = className;
}

function section(checked: Checked): HTMLElement {
  const { report } = checked;
  const el = document.createElement("section");
  el.dataset["tree"] = checked.tree;
  const title = document.createElement("h2");
  title.textContent = `${checked.label}: `;
  const verdict = document.createElement("output");
  verdict.className = "verdict";
  verdict.dataset["verdict"] = report.verdict;
  verdict.textContent = `${report.verdict} (${report.held} held, ${report.diverged} diverged)`;
  title.append(verdict);
  const table = document.createElement("table");
  table.createTHead().innerHTML = "<tr><th>line</th><th>kind</th><th>path</th><th>status</th><th>detail</th></tr>";
  const body = table.createTBody();
  for (const r of report.rows) {
    const row = body.insertRow();
    row.dataset["line"] = String(r.line);
    row.dataset["status"] = r.status;
    cell(row, String(r.line));
    cell(row, r.kind);
    cell(row, r.path);
    cell(row, r.status, "status");
    cell(row, r.detail);
  }
  el.append(title, table);
  return el;
}

/** Replaces `target`'s content with one section per checked tree. */
export function renderReports(target: HTMLElement, checked: readonly Checked[]): void {
  target.replaceChildren(...checked.map(section));
}
