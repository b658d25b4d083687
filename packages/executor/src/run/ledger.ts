import { LedgerEntry } from "../schema.js";

const tick = (met: boolean) => (met ? "met" : "NOT met");

function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const f = "`".repeat(longest + 1);
  return `${f}text\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${f}`;
}

/** The file name of a ledger entry: `preflight-S1.md`, `verify-S2-a3.md`, `final-S1.md`. */
export function ledgerName(entry: Pick<LedgerEntry, "kind" | "stage" | "attempt">): string {
  return `${entry.kind}-${entry.stage}${entry.attempt === null ? "" : `-a${entry.attempt}`}.md`;
}

/**
 * A ledger file: what ran, what it exited, what it printed, for people first; the same entry
 * as JSON in the last fenced block, for programs (`readLedger`).
 */
export function renderLedger(entry: LedgerEntry): string {
  const head = [
    `# Ledger: ${entry.kind} ${entry.stage}${entry.attempt === null ? "" : ` attempt ${entry.attempt}`}`,
    "",
    `- commit: ${entry.commit}`,
    `- clean room: ${entry.room}`,
    `- result: ${entry.green ? "green" : "red"}`,
  ];
  const rows = entry.rows.flatMap((r) => [
    "",
    `## ${r.id}: ${r.green ? "green" : "red"}`,
    "",
    fence(r.run),
    "",
    `- exit: ${r.exit ?? "none"}${r.signal ? ` (signal ${r.signal})` : ""}${r.timed_out ? " (timed out)" : ""}, ${r.duration_ms} ms`,
    ...r.checks.map((c) => `- ${c.what}: ${tick(c.met)}`),
    "",
    `stdout (tail${r.truncated ? ", truncated" : ""}):`,
    "",
    fence(r.stdout_tail),
    "",
    "stderr (tail):",
    "",
    fence(r.stderr_tail),
  ]);
  return [...head, ...rows, "", "## Entry", "", "```json", JSON.stringify(entry, null, 2), "```", ""].join("\n");
}

/** The entry in a ledger file's last JSON block; null when the file holds none that validates. */
export function readLedger(text: string): LedgerEntry | null {
  const at = text.lastIndexOf("```json\n");
  if (at < 0) return null;
  const end = text.indexOf("\n```", at + 8);
  if (end < 0) return null;
  try {
    const parsed = LedgerEntry.safeParse(JSON.parse(text.slice(at + 8, end)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
