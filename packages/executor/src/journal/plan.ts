// A task plan: its header fields and its `## Task <n>` sections, read from markdown.
import { err, ok, type Result } from "neverthrow";
import { z } from "zod";
import type { JournalFault } from "./fault.js";
import { substringIndex } from "./first-occurrence.js";
import { headingOf, hiddenHeading, type MdLine, scanBlocks, splitLines, textFault } from "./markdown.js";
import type { PlanTask, TaskPlan } from "./schema.js";

const HEADER = /^(Spec|Goal|Global constraints|Execution):[ \t]*(.*)$/;
const TASK_HEADING = /^Task[ \t]+(0|[1-9]\d{0,8})\b[ \t]*[:.\u2014\u2013-]?[ \t]*(.*)$/;
const FIELD = /^(?:[-*][ \t]+)?(?:\*\*)?(Files|Produces|Consumes|RED|GREEN|Check|Commit|Outward)(?:\*\*:|:\*\*|:)[ \t]*(.*)$/;
const FIELD_KEYS = { Produces: "produces", Consumes: "consumes", RED: "red", GREEN: "green", Check: "check", Commit: "commit", Outward: "outward" } as const;

const unquote = (s: string): string =>
  s
    .trim()
    .replace(/^`([^`]*)`$/, "$1")
    .trim();

/** A `## Task <n>` heading (level 2 or deeper). */
const isTaskHeading = (h: { level: number; text: string }): boolean => h.level >= 2 && TASK_HEADING.test(h.text);

interface Heading {
  readonly index: number;
  readonly level: number;
  readonly text: string;
}

function headings(lines: readonly MdLine[], hidden: readonly boolean[]): Heading[] {
  return lines.flatMap((l, index) => {
    const h = hidden[index] ? null : headingOf(l.text);
    return h ? [{ index, ...h }] : [];
  });
}

/** The fields of one task section; a field given twice is refused. */
function readTask(lines: readonly MdLine[], hidden: readonly boolean[], h: Heading, end: number): Result<PlanTask, JournalFault> {
  const m = TASK_HEADING.exec(h.text);
  const task: PlanTask = {
    n: Number(m?.[1]),
    title: (m?.[2] ?? "").trim(),
    line: h.index + 1,
    files: [],
    produces: null,
    consumes: null,
    red: null,
    green: null,
    check: null,
    commit: null,
    outward: null,
    body: lines
      .slice(h.index, end)
      .map((l) => l.text)
      .join("\n"),
  };
  const seen = new Set<string>();
  for (let i = h.index + 1; i < end; i++) {
    const f = hidden[i] ? null : FIELD.exec((lines[i] as MdLine).text);
    if (!f?.[1]) continue;
    if (seen.has(f[1])) return err({ code: "plan-invalid", line: i + 1, issue: `Task ${task.n} gives ${f[1]} twice` });
    seen.add(f[1]);
    const value = (f[2] ?? "").trim();
    if (f[1] === "Files")
      task.files = value
        .split(",")
        .map(unquote)
        .filter((p) => p !== "");
    else task[FIELD_KEYS[f[1] as keyof typeof FIELD_KEYS]] = value;
  }
  return ok(task);
}

/** The header fields before the first section. */
function readHeader(lines: readonly MdLine[], until: number): Result<Omit<TaskPlan, "tasks">, JournalFault> {
  const found: Record<string, { value: string; line: number }> = {};
  for (let i = 0; i < until; i++) {
    const m = HEADER.exec((lines[i] as MdLine).text);
    if (m?.[1] && !found[m[1]]) found[m[1]] = { value: (m[2] ?? "").trim(), line: i + 1 };
  }
  const exec = found.Execution;
  const mode = exec ? (/^[A-Za-z]+/.exec(exec.value)?.[0] ?? "") : "unset";
  if (exec && !["inline", "subagents", "unset"].includes(mode)) {
    return err({ code: "plan-invalid", line: exec.line, issue: `Execution starts with inline, subagents or unset, not ${JSON.stringify(exec.value)}` });
  }
  const spec = found.Spec ? unquote(found.Spec.value) : "";
  return ok({
    spec: spec === "" || /^none\b/i.test(spec) ? null : spec,
    goal: found.Goal?.value ?? null,
    constraints: found["Global constraints"]?.value ?? null,
    execution: mode as TaskPlan["execution"],
  });
}

/** Read a task plan: the header (`Spec`, `Goal`, `Global constraints`, `Execution`) and each `## Task <n>` section's fields. Never throws. */
export function readTaskPlan(markdown: string): Result<TaskPlan, JournalFault> {
  const refused = textFault(markdown);
  if (refused) return err(refused);
  const lines = splitLines(markdown);
  const scan = scanBlocks(lines);
  // A task heading hidden by a block left open: the task would be lost in silence.
  const lost = hiddenHeading(lines, scan, isTaskHeading);
  if (lost) return err(lost);
  const all = headings(lines, scan.hidden);
  const taskHeadings = all.filter(isTaskHeading);
  const first = all.find((h) => h.level >= 2);
  return readHeader(lines, first ? first.index : lines.length).andThen((header) => {
    if (taskHeadings.length === 0) return err({ code: "plan-invalid", line: 1, issue: "the plan has no `## Task <n>` section" } as const);
    const ends = sectionEnds(all, lines.length);
    const tasks: PlanTask[] = [];
    const numbers = new Set<number>();
    for (const h of taskHeadings) {
      const task = readTask(lines, scan.hidden, h, ends.get(h.index) ?? lines.length);
      if (task.isErr()) return err(task.error);
      if (numbers.has(task.value.n)) return err({ code: "plan-invalid", line: h.index + 1, issue: `Task ${task.value.n} appears twice` } as const);
      numbers.add(task.value.n);
      tasks.push(task.value);
    }
    return ok({ ...header, tasks });
  });
}

/** Where each heading's section ends: the line of the next heading of its level or higher, else `count`; one pass (a stack of open sections). */
function sectionEnds(all: readonly Heading[], count: number): Map<number, number> {
  const ends = new Map<number, number>();
  const open: Heading[] = [];
  for (const h of all) {
    while (open.length > 0 && (open[open.length - 1] as Heading).level >= h.level) ends.set((open.pop() as Heading).index, h.index);
    open.push(h);
  }
  for (const h of open) ends.set(h.index, count);
  return ends;
}

/** Why a `Consumes` does not agree with what earlier tasks produce. */
export const InterfaceFinding = z.object({
  task: z.number().int(),
  consumes: z.string(),
  issue: z.enum(["unknown-task", "not-earlier", "not-produced"]),
  /** The task the Consumes names, when it names one. */
  from: z.number().int().nullable(),
});
export type InterfaceFinding = z.infer<typeof InterfaceFinding>;

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

/** What a Consumes names: its code spans, else its text without the `from Task <n>` tail. */
function consumedItems(consumes: string): string[] {
  const spans = [...consumes.matchAll(/`([^`]+)`/g)].map((m) => norm(m[1] ?? ""));
  if (spans.length > 0) return spans;
  const text = norm(consumes.replace(/\bfrom\s+Tasks?\s+[\d,\sand]+$/i, ""));
  return text === "" ? [] : [text];
}

/** Each task's position in the plan by its number (the first, should a number repeat). */
export function positions(plan: TaskPlan): Map<number, number> {
  const at = new Map<number, number>();
  plan.tasks.forEach((t, k) => {
    if (!at.has(t.n)) at.set(t.n, k);
  });
  return at;
}

/**
 * The first task (by position) whose `Produces` (normalised: `produced`) holds a string: all of
 * them indexed once, so a lookup costs the string's length, not a walk over the tasks.
 */
function firstProducerOf(produced: readonly (string | null)[]): (item: string) => number | null {
  const owners: number[] = [];
  const texts: string[] = [];
  produced.forEach((p, k) => {
    if (p === null) return;
    owners.push(k);
    texts.push(p);
  });
  const index = substringIndex(texts);
  return (item) => owners[index.first(item)] ?? null;
}

/** For each task, the tasks its Consumes names or is produced by (for ordering), and the Consumes nothing earlier produces. */
export function interfaceEdges(plan: TaskPlan): { edges: Map<number, number[]>; findings: InterfaceFinding[] } {
  const edges = new Map<number, number[]>();
  const findings: InterfaceFinding[] = [];
  const at = positions(plan);
  const produced = plan.tasks.map((t) => (t.produces === null ? null : norm(t.produces)));
  const firstProducer = firstProducerOf(produced);
  plan.tasks.forEach((task, k) => {
    const deps: number[] = [];
    const named = [...(task.consumes ?? "").matchAll(/\bTask\s+(\d+)/gi)].map((m) => Number(m[1]));
    for (const n of named) {
      const from = at.get(n);
      if (from === undefined || from >= k)
        findings.push({ task: task.n, consumes: task.consumes ?? "", issue: from === undefined ? "unknown-task" : "not-earlier", from: n });
    }
    // When the Consumes names tasks, only the named earlier ones (in file order) may produce it.
    const namedEarlier = [...new Set(named.map((n) => at.get(n) ?? k))].filter((p) => p < k).sort((a, b) => a - b);
    for (const item of consumedItems(task.consumes ?? "")) {
      const producer = named.length > 0 ? namedEarlier.find((p) => produced[p]?.includes(item)) : earlier(firstProducer(item), k);
      if (producer !== undefined) deps.push((plan.tasks[producer] as PlanTask).n);
      else findings.push({ task: task.n, consumes: item, issue: "not-produced", from: named[0] ?? null });
    }
    const known = named.filter((n) => n !== task.n && at.has(n));
    edges.set(task.n, [...new Set([...deps, ...known])]);
  });
  return { edges, findings };
}

/** A task position when it comes before position `k`. */
const earlier = (p: number | null, k: number): number | undefined => (p !== null && p < k ? p : undefined);

/** Check that each task's `Consumes` names something an earlier task `Produces`; an empty list means the interfaces agree. */
export function checkInterfaces(plan: TaskPlan): InterfaceFinding[] {
  return interfaceEdges(plan).findings;
}
