// What a record says, read without effects: task states, rounds, open rulings, and the claims of
// a failing last Verify.
import { err, ok, type Result } from "neverthrow";
import type { JournalFault } from "./fault.js";
import { splitLines } from "./markdown.js";
import type { JournalRecord } from "./record.js";
import type { RecordLine, TaskPlan, TaskState } from "./schema.js";

type Line<K extends RecordLine["kind"]> = Extract<RecordLine, { kind: K }>;

/** The record's lines of one kind, in order. */
export function linesOf<K extends RecordLine["kind"]>(record: JournalRecord, kind: K): Line<K>[] {
  return record.entries.flatMap((e) => (e.value.kind === kind ? [e.value as Line<K>] : []));
}

/**
 * The record's first `Task` line for a task the plan does not have, as `record-line-invalid`
 * naming its line: the state it records would be read by nothing, a claim of progress nobody
 * sees. Ok when every `Task` line names a task of the plan.
 */
export function recordTasksKnown(plan: TaskPlan, record: JournalRecord): Result<void, JournalFault> {
  const known = new Set(plan.tasks.map((t) => t.n));
  for (const e of record.entries) {
    if (e.value.kind !== "task" || known.has(e.value.n)) continue;
    const text = splitLines(record.source)[e.line - 1]?.text ?? "";
    const tasks = [...known].map((n) => `Task ${n}`).join(", ");
    return err({ code: "record-line-invalid", line: e.line, text, issue: `Task ${e.value.n} is not a task of the plan (it has ${tasks})` });
  }
  return ok(undefined);
}

/** Each plan task's state: its last `Task` line, else `pending`. */
export function taskStates(plan: TaskPlan, record: JournalRecord): Map<number, TaskState> {
  const states = new Map<number, TaskState>(plan.tasks.map((t) => [t.n, { state: "pending" }]));
  for (const line of linesOf(record, "task")) states.set(line.n, line.state);
  return states;
}

/** The last `Base` line's commit, or null when there is none or it is `unset` (a fresh start). */
export function baseOf(record: JournalRecord): string | null {
  const base = linesOf(record, "base").pop();
  return base && base.base !== "unset" ? base.base : null;
}

/** The last round number recorded for each loop. */
export function lastRounds(record: JournalRecord): Record<string, number> {
  // No prototype: a loop named `constructor` or `__proto__` is a loop like any other.
  const rounds: Record<string, number> = Object.create(null);
  for (const r of linesOf(record, "round")) rounds[r.loop] = Math.max(rounds[r.loop] ?? 0, r.n);
  return rounds;
}

const AWAITING = /^awaiting user - (.+?)(?: - |$)/;

/**
 * `Ruling: awaiting user - <question> - …` lines not yet answered. A later
 * `Ruling: user answered - <question> - …` line (the same question text) closes one.
 */
export function openRulings(record: JournalRecord): string[] {
  const open: string[] = [];
  for (const { text } of linesOf(record, "ruling")) {
    const asked = AWAITING.exec(text)?.[1];
    if (asked !== undefined) open.push(text);
    const answered = /^user answered - (.+?)(?: - |$)/.exec(text)?.[1];
    if (answered !== undefined) {
      const k = open.findIndex((o) => AWAITING.exec(o)?.[1] === answered);
      if (k >= 0) open.splice(k, 1);
    }
  }
  return open;
}

/** True when the ruling marks a plan revised after the spec was approved again. */
export const isRevisionMarker = (text: string): boolean => text.startsWith("plan revised after spec re-approval");

/** A claim tag: `AC4`, `C12`, `R2-F1` (the last kind belongs to review, not to a task). */
const CLAIM = /\b[A-Z]{1,4}\d+(?:-F\d+)?\b/g;
/** The word a Ruling names after `Verify FAIL on `, read ahead so that the next search starts at it. */
const RULED = /\bVerify FAIL on (?=(\w+))/g;

/** The claims of a failing last Verify, and for each the task that covers it (null when none does). */
export interface FailClaims {
  /** Claim and covering task, in the order the claims are named; `task` null for an unplanned claim. */
  readonly claims: readonly { readonly claim: string; readonly task: number | null }[];
  /** True when a Ruling after the last Verify already returned the claim's task (the FAIL was handled). */
  readonly handled: ReadonlySet<string>;
}

/**
 * When the record's last `Verify` line is a `FAIL`: the failing claims named by the last
 * `Round verify <n>` line after it (tags such as `AC4`; review tags `R<n>-F<k>` are left to
 * review), each with the first task whose section names it. Null when the last Verify passed or
 * there is none.
 */
export function failClaims(plan: TaskPlan, record: JournalRecord): FailClaims | null {
  const at = record.entries.findLastIndex((e) => e.value.kind === "verify");
  const verify = record.entries[at]?.value;
  if (verify?.kind !== "verify" || verify.verdict !== "FAIL") return null;
  const after = record.entries.slice(at + 1).map((e) => e.value);
  const round = after.filter((l): l is Line<"round"> => l.kind === "round" && l.loop === "verify").pop();
  const tags = [...new Set(round?.cause.match(CLAIM) ?? [])].filter((t) => !/-F\d+$/.test(t));
  const naming = tags.length === 0 ? new Map<string, number>() : firstNaming(plan);
  const claims = tags.map((claim) => ({ claim, task: naming.get(claim) ?? null }));
  // The claim as a whole word after `Verify FAIL on ` (a Ruling on AC40 did not handle AC4): each
  // Ruling is scanned once, the word looked at without being consumed, so `on Verify FAIL on AC4` counts.
  const ruled = new Set<string>();
  for (const l of after) if (l.kind === "ruling") for (const [, word] of l.text.matchAll(RULED)) ruled.add(word as string);
  const handled = new Set(tags.filter((c) => ruled.has(c)));
  return { claims, handled };
}

/**
 * For each word of the tasks' sections (a run of letters, digits and `_`, as `\b` bounds it), the
 * first task whose section holds it: a claim tag is named by a task when it is one of its words.
 */
function firstNaming(plan: TaskPlan): Map<string, number> {
  const first = new Map<string, number>();
  for (const t of plan.tasks) for (const [w] of t.body.matchAll(/\w+/g)) if (!first.has(w)) first.set(w, t.n);
  return first;
}

/** The spec's `Status:` word (`approved`, `draft`, …), or null when the spec names none. */
export function specStatus(spec: string): string | null {
  return /^(?:\*\*)?Status(?::\*\*|\*\*:|:)[ \t]*`?([a-z-]+)/im.exec(spec)?.[1]?.toLowerCase() ?? null;
}
