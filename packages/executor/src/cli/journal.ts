// `decay journal show|resume|next`: flags become library calls; faults go back to main as values.
import { resolve } from "node:path";
import { bestEffort, inputName, readBounded, type StdStreams, writeOutput, writeText } from "@decay/cli-kit";
import { notADirectory } from "./io.js";
import { decodeStrictUtf8 } from "@decay/portable";
import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { systemGit } from "../node/git.js";
import { nodeShell } from "../node/shell.js";
import type { Git, Shell } from "../ports.js";
import { JOURNAL_FAULT_CODES, type JournalFault } from "../journal/fault.js";
import { interfaceEdges, readTaskPlan } from "../journal/plan.js";
import { type JournalRecord, parseRecord } from "../journal/record.js";
import { renderTaskState } from "../journal/line.js";
import { checklistIn, nextStep, orderBy } from "../journal/next-step.js";
import { applyResume, deriveResume, type Resume } from "../journal/resume.js";
import { recordTasksKnown, taskStates } from "../journal/read.js";
import type { TaskPlan } from "../journal/schema.js";
import { type JournalCommand, JOURNAL_HELP, parseJournalArgs } from "./journal-args.js";
import { type CliFault, describeCliFault, exitCodeFor } from "./journal-fault.js";

/** The streams and, optionally, the adapters `resume` uses (default: `systemGit` and `nodeShell` over `env`). */
export interface JournalIo extends StdStreams {
  readonly git?: (dir: string) => Pick<Git, "head" | "changedPaths" | "dirty">;
  readonly shell?: Shell;
  /** Aborted when the user interrupts (the bin aborts it on SIGINT, SIGTERM, SIGHUP): a recheck in flight is killed and nothing is written. */
  readonly signal?: AbortSignal;
}

interface Loaded {
  readonly path: string;
  readonly text: string;
  readonly plan: TaskPlan;
  readonly record: JournalRecord;
}

/** A plan's or spec's text as the readers take it: a leading BOM kept (they accept one and refuse two), so `--write` writes it back. */
function readText(io: StdStreams, input: string): ResultAsync<string, CliFault> {
  const path = inputName(input);
  return readBounded(io, input)
    .mapErr((r): CliFault => ({ code: "file-unreadable", path, reason: r.reason }))
    .andThen((bytes) => decodeStrictUtf8(bytes, { bom: "keep" }).mapErr((): CliFault => ({ code: "file-not-utf8", path })));
}

function load(io: StdStreams, input: string): ResultAsync<Loaded, CliFault> {
  const path = inputName(input);
  return readText(io, input).andThen((text) =>
    readTaskPlan(text)
      .andThen((plan) => parseRecord(text).andThen((record) => recordTasksKnown(plan, record).map(() => ({ path, text, plan, record }))))
      .mapErr((fault): CliFault => ({ code: "journal", path, fault })),
  );
}

/** The spec's text: `--spec`, else the plan's `Spec` path under the repository; null when the plan has none. */
function loadSpec(io: StdStreams, plan: TaskPlan, repo: string | null, spec: string | null): ResultAsync<string | null, CliFault> {
  if (spec !== null) return readText(io, spec);
  if (plan.spec === null) return okAsync(null);
  return readText(io, resolve(io.cwd, repo ?? ".", plan.spec));
}

/** `show`'s text. The interfaces are read once (one index of every Produces) for both the checklist's order and the findings. */
export function show(l: Pick<Loaded, "plan" | "record">): string {
  const states = taskStates(l.plan, l.record);
  const lines = l.plan.tasks.map((t) => `Task ${t.n}: ${renderTaskState(states.get(t.n) ?? { state: "pending" })}`);
  const { edges, findings: found } = interfaceEdges(l.plan);
  const findings = found.map((f) => `interface: Task ${f.task} consumes ${f.consumes}: ${f.issue}${f.from === null ? "" : ` (Task ${f.from})`}`);
  const list = checklistIn(l.plan, states, orderBy(l.plan, edges));
  return `${[...lines, "", ...list, ...(findings.length > 0 ? ["", ...findings] : [])].join("\n")}\n`;
}

function describeResume(r: Resume, l: Loaded, next: string): string {
  const out: string[] = [];
  if (r.fresh) out.push("fresh start (Base: unset): no task state changes");
  for (const c of r.changes) out.push(`Task ${c.n}: ${c.from.state} -> ${c.to.state}`);
  for (const rc of r.rechecks)
    out.push(`recheck Task ${rc.n} ${rc.field} \`${rc.command}\`: ${rc.passed ? "passed" : `failed (exit ${rc.exit ?? "by signal"})`}`);
  for (const rl of r.rulings) out.push(`Ruling: ${rl.text}`);
  for (const w of r.waiting) out.push(`waiting: Task ${w.n} is rechecked once Task ${w.after} is done`);
  for (const o of r.openRulings) out.push(`open: Ruling: ${o}`);
  for (const [loop, n] of Object.entries(r.rounds)) out.push(`rounds: ${loop} at ${n}`);
  if (!r.fresh && r.changes.length === 0 && r.rulings.length === 0) out.push(`${l.path}: no change`);
  out.push(r.stop === null ? next : `Next step: ${r.stop}`);
  return `${out.join("\n")}\n`;
}

/**
 * The plan file as `resume` read it, still: rechecks can run for minutes, and an edit made
 * meanwhile would be lost under the rewrite. Read again just before the write; a change refuses it.
 */
function unchangedSince(io: StdStreams, plan: string, read: string): ResultAsync<void, CliFault> {
  const path = inputName(plan);
  return readText(io, plan).andThen((now) =>
    now === read
      ? okAsync(undefined)
      : errAsync<void, CliFault>({ code: "file-unwritable", path, reason: "it changed while the rechecks ran, so nothing was written; run resume again" }),
  );
}

/** The plan file rewritten through the one atomic write the CLIs share (temp file, fsync, rename, directory fsync). */
function writeAtomically(io: StdStreams, path: string, text: string): ResultAsync<void, CliFault> {
  return writeOutput(io, path, text).mapErr((r): CliFault => ({ code: "file-unwritable", path, reason: r.reason }));
}

const isJournalFault = (f: JournalFault | ExecFault): f is JournalFault => (JOURNAL_FAULT_CODES as readonly string[]).includes(f.code);

/** A library fault as a CLI fault: a journal fault names the plan file. */
const libFault =
  (path: string) =>
  (f: JournalFault | ExecFault): CliFault =>
    isJournalFault(f) ? { code: "journal", path, fault: f } : { code: "exec", fault: f };

/** `--repo` resolved, when it names a directory (a test's own git needs none), else the fault naming it. */
function repoAt(io: JournalIo, given: string): Result<string, CliFault> {
  const repo = resolve(io.cwd, given);
  const missing = io.git ? null : notADirectory(repo);
  return missing === null ? ok(repo) : err({ code: "file-unreadable", path: `--repo ${given}`, reason: missing });
}

function resume(io: JournalIo, cmd: Extract<JournalCommand, { kind: "resume" }>): ResultAsync<string, CliFault> {
  const at = repoAt(io, cmd.repo);
  if (at.isErr()) return errAsync(at.error);
  const repo = at.value;
  const git = io.git ? io.git(repo) : systemGit({ dir: repo, env: io.env });
  const shell = io.shell ?? nodeShell({ env: io.env, ...(io.signal ? { signal: io.signal } : {}) });
  // An interrupted recheck is no failure of its task: nothing derived after the signal is printed or written.
  const stopped = (): CliFault | null =>
    io.signal?.aborted ? { code: "exec", fault: { code: "interrupted", step: "journal resume, before anything was written" } } : null;
  return load(io, cmd.plan).andThen((l) =>
    loadSpec(io, l.plan, repo, cmd.spec).andThen((spec) =>
      deriveResume({ plan: l.plan, record: l.record, git, shell, spec, cwd: repo, ...(cmd.spec === null ? {} : { specPath: cmd.spec }) })
        .mapErr((f) => stopped() ?? libFault(l.path)(f))
        .andThen((r) => {
          const interrupted = stopped();
          if (interrupted !== null) return errAsync(interrupted);
          const next = nextStep({ plan: l.plan, record: l.record, spec, states: r.states, ...(cmd.spec === null ? {} : { specPath: cmd.spec }) });
          const text = describeResume(r, l, next);
          if (!cmd.write || (r.changes.length === 0 && r.rulings.length === 0)) return okAsync(text);
          return applyResume(l.text, r)
            .mapErr(libFault(l.path))
            .asyncAndThen((updated) => unchangedSince(io, cmd.plan, l.text).andThen(() => writeAtomically(io, resolve(io.cwd, cmd.plan), updated)))
            .map(() => `${text}wrote ${r.changes.length} state change(s) and ${r.rulings.length} Ruling line(s) to ${l.path}\n`);
        }),
    ),
  );
}

function run(io: JournalIo, cmd: JournalCommand): ResultAsync<string, CliFault> {
  switch (cmd.kind) {
    case "help":
      return okAsync(JOURNAL_HELP);
    case "show":
      return load(io, cmd.plan).map(show);
    case "next": {
      // A --repo is checked even when the plan names no spec to read under it: never ignored.
      const at = cmd.repo === null ? ok(null) : repoAt(io, cmd.repo);
      if (at.isErr()) return errAsync(at.error);
      return load(io, cmd.plan).andThen((l) =>
        loadSpec(io, l.plan, cmd.repo, cmd.spec).map(
          (spec) =>
            `${nextStep({ plan: l.plan, record: l.record, spec, ...(cmd.invocation ? { invocation: cmd.invocation } : {}), ...(cmd.spec === null ? {} : { specPath: cmd.spec }) })}\n`,
        ),
      );
    }
    case "resume":
      return resume(io, cmd);
  }
}

/** `decay journal …`: exit 0 ok, 2 any fault (its message on stderr). */
export async function journalMain(argv: readonly string[], io: JournalIo): Promise<number> {
  const outcome = await parseJournalArgs(argv)
    .asyncAndThen((cmd) => run(io, cmd))
    .andThen((text) => writeText(io.stdout, text, (reason): CliFault => ({ code: "stdout-write-failed", reason })));
  if (outcome.isOk()) return 0;
  await bestEffort(io.stderr, `decay: ${describeCliFault(outcome.error)}\n`);
  return exitCodeFor(outcome.error);
}
