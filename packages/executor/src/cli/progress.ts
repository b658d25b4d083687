// How `decay run` shows a run's events: a live view redrawn in place on a terminal (log-update),
// one plain line per event elsewhere (pipes, CI), or NDJSON for orchestrators (--json).
import { bestEffort, type CliWriter } from "@decay/cli-kit";
import { createLogUpdate } from "log-update";
import { RUN_EVENT_SCHEMA_ID, type RunEvent } from "../schema.js";
import { oneLine } from "@decay/portable";

/** Where progress goes; `close` waits for every write and hands back the first failure, if any. */
export interface Progress {
  event(event: RunEvent): void;
  /** Stop redrawing (the live view's last frame stays) and wait for the writes. */
  close(): Promise<string | null>;
}

/** Progress that also says warnings, once each: in the live view they stay in view, elsewhere they go to stderr. */
export interface RunProgress extends Progress {
  warn(text: string): void;
}

/** A stage as the live view lists it. */
export interface StageLine {
  readonly id: string;
  readonly title: string;
}

/** Writes in order; the first failure is kept (a broken stdout is a fault, never a verdict). */
function ordered(out: CliWriter) {
  let chain: Promise<void> = Promise.resolve();
  let failed: string | null = null;
  return {
    write(text: string) {
      chain = chain
        .then(() => out.write(text))
        .catch((e: unknown) => {
          failed ??= e instanceof Error ? e.message : String(e);
        });
    },
    done: async () => {
      await chain;
      return failed;
    },
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** What a run set aside, and how to get it back: said where the user looks now, not only in REPORT.md. */
export function setAsideLine(e: { readonly stash: string; readonly paths: readonly string[] }): string {
  const paths = e.paths.slice(0, 5).join(", ") + (e.paths.length > 5 ? `, and ${e.paths.length - 5} more` : "");
  return `set aside the leftovers of an interrupted run (${paths}) in stash ${e.stash.slice(0, 12)}; git stash apply ${e.stash} brings them back`;
}

/** Says a warning on stderr as `decay` does, one line (`decay: warning: …`); a failed write is no fault, so it never rejects. */
export function warnOnStderr(stderr: CliWriter, text: string): Promise<void> {
  return bestEffort(stderr, `decay: warning: ${oneLine(text)}\n`);
}

/** One line for an event, as plain progress prints it. */
export function eventLine(e: RunEvent): string {
  switch (e.type) {
    case "run-started":
      return `run ${e.slug} on ${e.branch} from ${e.head.slice(0, 12)}`;
    case "set-aside":
      return setAsideLine(e);
    case "preflight":
      return `preflight: green at the start: ${e.green.join(", ") || "none"}`;
    case "stage-started":
      return `${e.stage} started: ${e.label}${e.title ? `: ${e.title}` : ""}`;
    case "stage-skipped":
      return `${e.stage} skipped (${e.state}): ${e.reason}`;
    case "attempt":
      return `${e.stage} attempt ${e.attempt}`;
    case "agent-call":
      return `${e.stage} a${e.attempt} ${e.role}${e.try > 1 ? ` (try ${e.try})` : ""}`;
    case "agent-nothing":
      return `${e.stage} ${e.role} returned nothing (try ${e.try}): ${e.reason}`;
    case "command-running":
      return `${e.stage === "*" ? "every stage" : e.stage} ${e.phase}: running ${e.rows.join(", ")}`;
    case "verified":
      return `${e.stage} ${e.phase}${e.attempt === null ? "" : ` a${e.attempt}`}: ${e.green ? "green" : "red"} (${e.ledger})`;
    case "escalated":
      return `${e.stage} escalated: ${e.reason}`;
    case "parked":
      return `parked at ${e.stage}: ${e.resume}`;
    case "tokens":
      return `tokens so far: ${e.total}`;
    case "done":
      return `done: ${e.status}; green: ${e.green.join(", ") || "none"}`;
  }
}

/** One line per event, prefixed with the time since the run started; what an event quotes never breaks it. */
export function plainProgress(out: CliWriter, now: () => number = Date.now): Progress {
  const w = ordered(out);
  const start = now();
  return {
    event: (e) => w.write(`[${seconds(now() - start).padStart(7)}] ${oneLine(eventLine(e))}\n`),
    close: w.done,
  };
}

/** Each event as one JSON object per line (schemas/run-event.schema.json). */
export function jsonProgress(out: CliWriter): Progress {
  const w = ordered(out);
  return { event: (e) => w.write(`${JSON.stringify({ $schema: RUN_EVENT_SCHEMA_ID, version: 1, ...e })}\n`), close: w.done };
}

/** What the live view knows: each stage's state, what runs now, tokens, since when. */
interface View {
  readonly stages: Map<string, string>;
  now: string;
  tokens: number;
  head: string;
  /** Lines that stay in view to the end (leftovers set aside, warnings). */
  readonly notes: string[];
}

function apply(view: View, e: RunEvent): void {
  const set = (stage: string, text: string) => view.stages.has(stage) && view.stages.set(stage, text);
  if (e.type === "set-aside") view.notes.push(setAsideLine(e));
  if (e.type === "run-started") view.head = `${e.branch} from ${e.head.slice(0, 12)}`;
  else if (e.type === "preflight") for (const id of e.green) set(id, "green at the start");
  else if (e.type === "stage-skipped") set(e.stage, e.state);
  else if (e.type === "attempt") set(e.stage, `attempt ${e.attempt}`);
  else if (e.type === "agent-call") set(e.stage, `attempt ${e.attempt} · ${e.role}${e.try > 1 ? ` (try ${e.try})` : ""}`);
  else if (e.type === "verified" && e.phase !== "final") set(e.stage, `attempt ${e.attempt ?? "-"} · ${e.green ? "green" : "red"}`);
  else if (e.type === "verified") set(e.stage, e.green ? "green (final)" : "red (final)");
  else if (e.type === "escalated") set(e.stage, `escalated: ${e.reason}`);
  else if (e.type === "tokens") view.tokens = e.total;
  else if (e.type === "parked") set(e.stage, `parked: ${e.resume}`);
  else if (e.type === "done") for (const id of e.green) set(id, "green");
  if (e.type === "command-running") view.now = `${e.phase} ${e.stage === "*" ? "" : `${e.stage} `}(${e.rows.join(", ")})`;
  else if (e.type === "agent-call") view.now = `agent: ${e.role} for ${e.stage}`;
  else if (e.type === "done") view.now = `done: ${e.status}`;
}

function frame(view: View, elapsedMs: number): string {
  const width = Math.max(...[...view.stages.keys()].map((k) => k.length), 2);
  const lines = [`decay run · ${view.head || "starting"} · ${seconds(elapsedMs)} · tokens ${view.tokens}`];
  for (const [id, text] of view.stages) lines.push(`  ${id.padEnd(width)}  ${text}`);
  lines.push(`  now: ${view.now}`, ...view.notes.map((n) => `  ${n}`));
  return lines.join("\n");
}

/** The live view on a terminal stream, redrawn in place on each event and every second; a warning stays in view. */
export function liveProgress(stream: NodeJS.WritableStream, stages: readonly StageLine[], now: () => number = Date.now): RunProgress {
  // A terminal that reports no size (a bare pseudo-terminal) is drawn on as 100×40, not skipped.
  const tty = stream as NodeJS.WriteStream;
  const target = {
    isTTY: true,
    get columns() {
      return tty.columns || 100;
    },
    get rows() {
      return tty.rows || 40;
    },
    write: (text: string) => tty.write(text),
  };
  const draw = createLogUpdate(target as unknown as NodeJS.WriteStream, { showCursor: true });
  const view: View = { stages: new Map(stages.map((s) => [s.id, "waiting"])), now: "preflight", tokens: 0, head: "", notes: [] };
  const start = now();
  const redraw = () => draw(frame(view, now() - start));
  const timer = setInterval(redraw, 1000);
  timer.unref();
  redraw();
  return {
    event(e) {
      apply(view, e);
      redraw();
    },
    warn(text) {
      view.notes.push(`warning: ${oneLine(text)}`);
      redraw();
    },
    close: async () => {
      clearInterval(timer);
      redraw();
      draw.done();
      return null;
    },
  };
}
