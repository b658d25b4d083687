import type { Contract } from "@decay/contract";
import type { RunReport, StageReport } from "../schema.js";
import { oneLine } from "@decay/portable";

const name = (s: StageReport) => `${s.id} (${s.label}${s.title ? `: ${s.title}` : ""})`;
const bullets = (items: readonly string[], none = "- none") => (items.length === 0 ? [none] : items.map((i) => `- ${i}`));

function greenLines(report: RunReport): string[] {
  return report.stages
    .filter((s) => s.final === "green")
    .map(
      (s) =>
        `${name(s)}: green in a fresh clean room of ${s.verified?.commit.slice(0, 12)}, ledger \`${s.verified?.ledger}\`${s.state === "green-at-start" ? " (already green at the start)" : ""}`,
    );
}

function otherLines(report: RunReport): string[] {
  return report.stages
    .filter((s) => s.final !== "green")
    .map((s) => {
      const where = s.freeze.length > 0 ? `; freeze: ${s.freeze.map((f) => `\`${f}\``).join(", ")}` : "";
      return `${name(s)}: ${s.final === "not-run" ? "not run" : "red"}, ${s.state}${s.reason ? ` - ${s.reason}` : ""}${where}`;
    });
}

function escalationLines(report: RunReport): string[] {
  const out: string[] = [];
  for (const s of report.stages.filter((x) => x.state === "escalated" || x.refused_fixes.length > 0)) {
    out.push(`### ${name(s)}`, "", `${s.state === "escalated" ? "Escalated" : "Refused fixes"}: ${s.reason ?? ""}`, "");
    for (const f of s.refused_fixes) {
      out.push(
        `- attempt ${f.attempt}, lens ${f.lens}: ${oneLine(f.fix)}`,
        `  - refused: ${f.reason}${f.commit ? ` (commit ${f.commit.slice(0, 12)} reverted)` : ""}`,
      );
      for (const row of f.diverged) out.push(`  - diverged: ${row}`);
    }
    out.push("");
  }
  return out;
}

/** REPORT.md: the handoff for people. report.json holds the same facts for programs. */
export function renderReportMd(report: RunReport, contract: Contract): string {
  const c = report.cost;
  const lines = [
    `# Run report: ${report.plan}`,
    "",
    `Status: **${report.status}**${report.reason ? ` - ${report.reason}` : ""}`,
    "",
    `Branch \`${report.branch}\`; started at ${report.start.commit.slice(0, 12)}, ended at ${report.end.commit.slice(0, 12)}. Green is decided only by the final re-run of every stage's acceptance in a fresh clean room of the final HEAD.`,
    "",
    "## Green, and how it was verified",
    "",
    ...bullets(greenLines(report)),
    "",
    "## Not green, and why",
    "",
    ...bullets(otherLines(report)),
    "",
  ];
  if (report.stale) {
    lines.push(
      "## Stale plan",
      "",
      `The assumptions in \`${report.stale.assumptions}\` no longer hold; re-plan from the tree as it is now:`,
      "",
      ...bullets(report.stale.diverged),
      "",
    );
  }
  const esc = escalationLines(report);
  if (esc.length > 0) lines.push("## Escalations and refused fixes", "", ...esc);
  lines.push(
    "## Compared with the start",
    "",
    `- green before: ${report.start.green.join(", ") || "none"}`,
    `- green after: ${report.end.green.join(", ") || "none"}`,
    `- commits made: ${report.commits.length}${report.commits.length ? ` (${report.commits.map((x) => x.slice(0, 12)).join(", ")})` : ""}`,
    ...(report.set_aside ? [`- leftovers of an interrupted run set aside in stash commit ${report.set_aside}`] : []),
    "",
    "## Cost",
    "",
    `- tokens: ${c.total_tokens} (${Object.entries(c.tokens)
      .map(([r, n]) => `${r} ${n}`)
      .join(", ")})`,
    `- attempts: ${c.attempts}; agent calls: ${c.agent_calls}, of which returned nothing: ${c.nothing_returned}`,
    ...c.returned_nothing.map((n) => `  - ${n.step} try ${n.try}: ${n.reason}`),
    `- wall time: ${(c.wall_ms / 1000).toFixed(1)} s`,
    "",
    "## Falsifiers (for the reader to judge)",
    "",
    ...bullets(contract.falsifiers, "- the plan lists none"),
    "",
  );
  return lines.join("\n");
}

const resumeWith = (command: string, how: string) => [
  "Resume with:",
  "",
  "```sh",
  command,
  "```",
  "",
  `A resumed run trusts nothing written here: ${how}.`,
  "",
];

/** RESUME.md: written only when parked. It claims nothing: resuming re-derives progress by preflight. */
export function renderResumeMd(report: RunReport, command: string): string {
  const next = report.stages.find((s) => s.state === "parked") ?? report.stages.find((s) => s.final !== "green" && !s.optional);
  return [
    `# Parked: ${report.plan}`,
    "",
    `The run parked: ${report.reason ?? "the agent returned nothing"}.`,
    "",
    `- green now (final verification): ${report.end.green.join(", ") || "none"}`,
    `- next: ${next ? name(next) : "nothing left"}`,
    "",
    ...resumeWith(command, "it re-runs every stage's acceptance in a clean room first (preflight) and continues from what passes"),
  ].join("\n");
}

/** RESUME.md of a run its caller interrupted (SIGINT): where it stopped and how to resume; it claims nothing else. */
export function renderInterruptedMd(plan: string, step: string, command: string): string {
  return [
    `# Parked: ${plan}`,
    "",
    `The run was interrupted at step \`${step}\`; the command in flight was killed and nothing of that step was kept.`,
    "",
    ...resumeWith(
      command,
      "it sets aside any leftovers of the interrupted step, re-runs every stage's acceptance in a clean room first (preflight) and continues from what passes",
    ),
  ].join("\n");
}
