// The Round rule: how many automatic rounds a loop may take, and what stops it.
import { linesOf } from "./read.js";
import type { JournalRecord } from "./record.js";
import type { RecordLine } from "./schema.js";

/** How the next round of a loop is decided. */
export interface RoundOptions {
  /** Automatic rounds allowed; a count the user gave explicitly. Default 3. */
  readonly limit?: number;
  /** The cause of the round about to start; the same cause as an earlier round escalates. */
  readonly cause?: string;
  /** The user's words when the user started this round by an explicit call: it runs once past the limit. */
  readonly userStarted?: string;
}

/** Go with round `n` (the lines to append), or stop with the reason and the cause to tell the user. */
export type RoundDecision =
  | { readonly go: true; readonly n: number; readonly lines: readonly RecordLine[] }
  | { readonly go: false; readonly reason: "limit" | "same-cause" | "none-accepted"; readonly cause: string };

const key = (cause: string): string => cause.replace(/\s+/g, " ").trim().toLowerCase();

/** The review rounds, oldest first, that had findings and whose Received line accepted none of them. */
function unacceptedReviews(record: JournalRecord): boolean[] {
  const findings = new Set(linesOf(record, "finding").map((f) => f.r));
  return linesOf(record, "received")
    .filter((r) => findings.has(r.r))
    .map((r) => !r.items.some((i) => i.verdict === "ACCEPT" || i.verdict === "PARTIAL"));
}

/**
 * Decide the next round of `loop` (`task-<n>`, `verify`, …) from the record: numbers continue
 * from the last recorded one; at most three automatic rounds unless `limit` says otherwise (a
 * user-started round runs once past it, with a Ruling); the same cause twice escalates; for a
 * loop other than a task's, two review rounds with findings and none accepted stop it.
 */
export function nextRound(record: JournalRecord, loop: string, options: RoundOptions = {}): RoundDecision {
  return decideRound(
    record,
    loop,
    linesOf(record, "round").filter((r) => r.loop === loop),
    options,
  );
}

type RoundLine = Extract<RecordLine, { kind: "round" }>;

/** The record's Round lines grouped by loop, in one pass. */
export function roundsByLoop(record: JournalRecord): Map<string, RoundLine[]> {
  const by = new Map<string, RoundLine[]>();
  for (const r of linesOf(record, "round")) {
    const group = by.get(r.loop);
    if (group) group.push(r);
    else by.set(r.loop, [r]);
  }
  return by;
}

/** `nextRound` given the loop's own Round lines (`rounds`), so a caller deciding many loops groups them once. */
export function decideRound(record: JournalRecord, loop: string, rounds: readonly RoundLine[], options: RoundOptions = {}): RoundDecision {
  const limit = options.limit ?? 3;
  const seen = new Map<string, string>();
  for (const r of [...rounds.map((x) => x.cause), ...(options.cause ? [options.cause] : [])]) {
    if (seen.has(key(r))) return { go: false, reason: "same-cause", cause: `${loop}: the same cause twice (${r})` };
    seen.set(key(r), r);
  }
  if (!loop.startsWith("task-") && unacceptedReviews(record).slice(-2).filter(Boolean).length === 2) {
    return { go: false, reason: "none-accepted", cause: `${loop}: two rounds with findings and none accepted` };
  }
  const n = Math.max(0, ...rounds.map((r) => r.n)) + 1;
  const round: RecordLine[] = options.cause ? [{ kind: "round", loop, n, cause: options.cause }] : [];
  if (rounds.length < limit) return { go: true, n, lines: round };
  if (options.userStarted === undefined) return { go: false, reason: "limit", cause: `${loop}: the limit of ${limit} automatic rounds is reached` };
  const ruling: RecordLine = { kind: "ruling", text: `round R${n} started by the user past the limit - ${options.userStarted} - the loop runs once more` };
  return { go: true, n, lines: [ruling, ...round] };
}
