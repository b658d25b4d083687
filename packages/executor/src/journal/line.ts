// One record line: text to a typed line and back. renderLine(parseLine(t)) === t for every
// line parseLine accepts: free text is kept verbatim and separators are fixed.
import { err, ok, type Result } from "neverthrow";
import { isFullCommitId } from "../run/paths.js";
import { BLOCKER_LABELS, type BlockerLabel, type RecordLine, type ReceivedVerdict, type TaskState } from "./schema.js";

const HEX = "[0-9a-f]{4,64}";
const VERDICTS = "ACCEPT|REJECT|PARTIAL|DEFER|ESCALATE|OUTDATED";

/** Read the evidence of a `Task` line's state; an issue string when the state's rule is broken. */
export function readTaskState(state: string, rest: string | undefined): Result<TaskState, string> {
  switch (state) {
    case "pending":
      return ok(rest === undefined ? { state } : { state, note: rest });
    case "in progress":
      return rest ? ok({ state, evidence: rest }) : err("in progress needs evidence after ' - '");
    case "done":
      if (!rest) return err("done needs evidence after ' - ': command -> result");
      return /\S -> \S/.test(rest) ? ok({ state, evidence: rest }) : err("done evidence must read 'command -> result'");
    case "blocked":
      return readBlocker(rest);
  }
  return err(`unknown state ${JSON.stringify(state)}`);
}

function readBlocker(rest: string | undefined): Result<TaskState, string> {
  const label = BLOCKER_LABELS.find((b) => rest?.startsWith(`${b}: `));
  if (!rest || !label || rest.length === label.length + 2) {
    return err(`blocked must name one of the five blockers, as '<blocker>: <what is missing>' (${BLOCKER_LABELS.join(", ")})`);
  }
  return ok({ state: "blocked", blocker: label as BlockerLabel, detail: rest.slice(label.length + 2) });
}

/** The text after `Task <n>: ` for a state. */
export function renderTaskState(s: TaskState): string {
  switch (s.state) {
    case "pending":
      return s.note === undefined ? "pending" : `pending - ${s.note}`;
    case "in progress":
    case "done":
      return `${s.state} - ${s.evidence}`;
    case "blocked":
      return `blocked - ${s.blocker}: ${s.detail}`;
  }
}

function readBase(rest: string): Result<RecordLine, string> {
  const m = /^(\S+)(?: Root: (.+?) Branch: (.+))?$/.exec(rest);
  const base = m?.[1];
  if (!m || !base || (base !== "unset" && !isFullCommitId(base))) return err("Base takes a full commit SHA or 'unset'");
  const where = m[2] && m[3] ? { root: m[2], branch: m[3] } : null;
  if (base !== "unset" && !where) return err("a set Base carries ' Root: <path> Branch: <name>'");
  return ok({ kind: "base", base, where });
}

function readDirty(rest: string): Result<RecordLine, string> {
  if (rest === "none") return ok({ kind: "dirty", paths: [] });
  const paths = rest.split(", ").map((p) => (p.endsWith(" (staged)") ? { path: p.slice(0, -9), staged: true } : { path: p, staged: false }));
  return paths.some((p) => p.path === "") ? err("an empty path in the list") : ok({ kind: "dirty", paths });
}

function readReceived(r: number, rest: string): Result<RecordLine, string> {
  const m = /^(.+?)(,?) Re-review: (needed|not needed)$/.exec(rest);
  if (!m?.[1]) return err("Received reads '<ID> <VERDICT>, ... Re-review: needed|not needed'");
  const items: { id: string; verdict: ReceivedVerdict }[] = [];
  for (const item of m[1].split(", ")) {
    const im = new RegExp(`^(\\S+) (${VERDICTS})$`).exec(item);
    if (!im?.[1]) return err(`${JSON.stringify(item)} is not '<ID> <${VERDICTS}>'`);
    items.push({ id: im[1], verdict: im[2] as ReceivedVerdict });
  }
  return ok({ kind: "received", r, items, comma: m[2] === ",", rereview: m[3] as "needed" | "not needed" });
}

type Reader = (m: RegExpExecArray) => Result<RecordLine, string>;

// Each line's first word, its pattern, how to read a match, and the grammar a near miss is told.
const READERS: readonly [string, RegExp, Reader, string][] = [
  ["Base", /^Base: (.*)$/, (m) => readBase(m[1] ?? ""), ""],
  ["Branch", /^Branch: (.+)$/, (m) => ok({ kind: "branch", branch: m[1] ?? "" }), "Branch: <name>"],
  ["Commits", /^Commits: (allowed|ask once|forbidden)$/, (m) => ok({ kind: "commits", policy: m[1] as "allowed" }), "Commits: allowed|ask once|forbidden"],
  ["Initial dirty state", /^Initial dirty state: (.+)$/, (m) => readDirty(m[1] ?? ""), "Initial dirty state: <paths>|none"],
  [
    "Task",
    /^Task (0|[1-9]\d{0,8}): (pending|in progress|done|blocked)(?: - (.+))?$/,
    (m) => readTaskState(m[2] ?? "", m[3]).map((state) => ({ kind: "task", n: Number(m[1]), state }) as const),
    "Task <n>: pending|in progress|done|blocked - <evidence>",
  ],
  ["Ruling", /^Ruling: (.+)$/, (m) => ok({ kind: "ruling", text: m[1] ?? "" }), "Ruling: <decision> - <reason> - <cost if wrong>"],
  ["Deferred", /^Deferred: (.+)$/, (m) => ok({ kind: "deferred", text: m[1] ?? "" }), "Deferred: <item> - <owner or place>"],
  [
    "Verify",
    new RegExp(`^Verify: (\\S+) (full|compact) tree (${HEX}) (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d)( working)?$`),
    (m) => ok({ kind: "verify", verdict: m[1] ?? "", depth: m[2] as "full", tree: m[3] ?? "", at: m[4] ?? "", working: !!m[5] }),
    "Verify: <verdict> full|compact tree <tree SHA> <YYYY-MM-DD HH:MM> [working]",
  ],
  [
    "Review",
    new RegExp(`^Review R(0|[1-9]\\d{0,8}): (.*) tree (${HEX}) reviewer (\\S+) mode (code|document|re-review)$`),
    (m) => ok({ kind: "review", r: Number(m[1]), summary: m[2] ?? "", tree: m[3] ?? "", reviewer: m[4] ?? "", mode: m[5] as "code" }),
    "Review R<n>: <summary> tree <tree SHA> reviewer <model> mode code|document|re-review",
  ],
  [
    "Finding",
    /^Finding R(0|[1-9]\d{0,8})-F(0|[1-9]\d{0,8}): (\S+) (\S+) - (.+)$/,
    (m) => ok({ kind: "finding", r: Number(m[1]), f: Number(m[2]), severity: m[3] ?? "", location: m[4] ?? "", title: m[5] ?? "" }),
    "Finding R<n>-F<k>: <severity> <location> - <title>",
  ],
  ["Received", /^Received R(0|[1-9]\d{0,8}): (.+)$/, (m) => readReceived(Number(m[1]), m[2] ?? ""), ""],
  [
    "Round",
    /^Round (\S+) (0|[1-9]\d{0,8}): (.+)$/,
    // Rounds count from 1 (`nextRound` starts there): a round 0 is no round any rule wrote.
    (m) =>
      m[2] === "0" ? err("rounds count from 1: Round <loop> 0 is no round") : ok({ kind: "round", loop: m[1] ?? "", n: Number(m[2]), cause: m[3] ?? "" }),
    "Round <loop> <n>: <cause>",
  ],
];

/** Read one line of the record's text block; the issue says which rule it breaks. Never throws. */
export function parseLine(text: string): Result<RecordLine, string> {
  if (text.trim() === "") return ok({ kind: "blank", text });
  for (const [prefix, re, read, grammar] of READERS) {
    const m = re.exec(text);
    if (m) return read(m);
    if (grammar && (text.startsWith(`${prefix} `) || text.startsWith(`${prefix}:`))) return err(`expected '${grammar}'`);
  }
  return err(`a record line starts with one of: ${READERS.map((r) => r[0]).join(", ")}`);
}

/** Write one record line; the inverse of `parseLine` for the lines it accepts. */
export function renderLine(line: RecordLine): string {
  switch (line.kind) {
    case "blank":
      return line.text;
    case "base":
      return `Base: ${line.base}${line.where ? ` Root: ${line.where.root} Branch: ${line.where.branch}` : ""}`;
    case "branch":
      return `Branch: ${line.branch}`;
    case "commits":
      return `Commits: ${line.policy}`;
    case "dirty":
      return `Initial dirty state: ${line.paths.length === 0 ? "none" : line.paths.map((p) => (p.staged ? `${p.path} (staged)` : p.path)).join(", ")}`;
    case "task":
      return `Task ${line.n}: ${renderTaskState(line.state)}`;
    case "ruling":
      return `Ruling: ${line.text}`;
    case "deferred":
      return `Deferred: ${line.text}`;
    case "verify":
      return `Verify: ${line.verdict} ${line.depth} tree ${line.tree} ${line.at}${line.working ? " working" : ""}`;
    case "review":
      return `Review R${line.r}: ${line.summary} tree ${line.tree} reviewer ${line.reviewer} mode ${line.mode}`;
    case "finding":
      return `Finding R${line.r}-F${line.f}: ${line.severity} ${line.location} - ${line.title}`;
    case "received":
      return `Received R${line.r}: ${line.items.map((i) => `${i.id} ${i.verdict}`).join(", ")}${line.comma ? "," : ""} Re-review: ${line.rereview}`;
    case "round":
      return `Round ${line.loop} ${line.n}: ${line.cause}`;
  }
}
