import type { AcceptanceRow, Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import type { Room } from "../ports.js";
import type { LedgerEntry, LedgerKind, LedgerRow } from "../schema.js";
import { type Deps, writeFile } from "./deps.js";
import { judgeRow } from "./expect.js";
import { ledgerName, renderLedger } from "./ledger.js";
import { failureSignature } from "./signature.js";

/** Bytes of each output tail a ledger keeps (the whole output is judged, up to the run's cap). */
const LEDGER_TAIL = 4096;

/** What one stage's verification came to, as a step hands it back (small JSON). */
export interface StageVerdict {
  readonly green: boolean;
  readonly ledger: string;
  readonly failing: readonly string[];
  readonly signature: string | null;
}

/** A verification pass: some stages' acceptance at one commit, in clean rooms of it (one per stage unless a room stays as it was handed over). */
export interface Pass {
  readonly kind: LedgerKind;
  readonly commit: string;
  /** The folder its ledger files go into: the run's ledger, or a standalone verification's own folder. */
  readonly ledger: string;
  readonly stages: readonly Stage[];
  readonly attempt: number | null;
  /** Unique among the run's rooms: the step's name (a room opened for a later stage gets `-<stage>` after it). */
  readonly room: string;
}

const tail = (text: string) => (text.length > LEDGER_TAIL ? text.slice(-LEDGER_TAIL) : text);

async function runRow(d: Deps, room: Room, row: AcceptanceRow): Promise<Result<LedgerRow & { full: { stdout: string; stderr: string } }, ExecFault>> {
  const ran = await d.shell.run({
    command: row.run,
    cwd: room.dir,
    timeoutMs: d.settings.commandTimeoutMs,
    maxOutputBytes: d.settings.maxOutputBytes,
  });
  if (ran.isErr()) return err(ran.error);
  const r = ran.value;
  const judged = judgeRow(row, r, d.patterns);
  if (judged.isErr()) return err(judged.error);
  const checks = judged.value;
  return ok({
    id: row.id,
    run: row.run,
    exit: r.exit,
    signal: r.signal,
    timed_out: r.timedOut,
    duration_ms: Math.round(r.durationMs),
    checks,
    green: checks.every((c) => c.met),
    stdout_tail: tail(r.stdout),
    stderr_tail: tail(r.stderr),
    truncated: r.truncated || r.stdout.length > LEDGER_TAIL || r.stderr.length > LEDGER_TAIL,
    full: { stdout: r.stdout, stderr: r.stderr },
  });
}

async function verifyStage(d: Deps, room: Room, pass: Pass, stage: Stage): Promise<Result<StageVerdict, ExecFault>> {
  const rows: LedgerRow[] = [];
  const failed: { id: string; unmet: string[]; stdout: string; stderr: string }[] = [];
  for (const row of stage.acceptance) {
    const r = await runRow(d, room, row);
    if (r.isErr()) return err(r.error);
    const { full, ...ledgerRow } = r.value;
    rows.push(ledgerRow);
    if (!ledgerRow.green) failed.push({ id: row.id, unmet: ledgerRow.checks.filter((c) => !c.met).map((c) => c.what), ...full });
  }
  const entry: LedgerEntry = {
    kind: pass.kind,
    stage: stage.id,
    attempt: pass.attempt,
    commit: pass.commit,
    room: d.cleanRoom.kind,
    // Zero rows verify nothing: never green (verifyPass refuses such a stage before this).
    green: rows.length > 0 && failed.length === 0,
    rows,
  };
  const ledger = `${pass.ledger}/${ledgerName(entry)}`;
  const written = await writeFile(d, ledger, renderLedger(entry));
  if (written.isErr()) return err(written.error);
  return ok({
    green: entry.green,
    ledger,
    failing: failed.map((f) => f.id),
    signature: failed.length === 0 ? null : failureSignature(failed),
  });
}

/**
 * Materialise the pass's commit in a fresh clean room, run each stage's rows there, write one
 * ledger file per stage, and dispose the room whatever happened. One stage's acceptance never
 * decides another's verdict: the next stage runs in the same room only when the room says nothing
 * in it changed (`Room.unchanged`), else in a fresh room of its own (`<room>-<stage>`), so a stage
 * is judged in a pass as it is alone. A room or command that cannot be made to run is a fault,
 * never a red stage; so is a stage with no acceptance row (`stage-without-acceptance`, before any
 * room is opened): nothing would run, so nothing is green.
 */
export async function verifyPass(d: Deps, pass: Pass): Promise<Result<Record<string, StageVerdict>, ExecFault>> {
  const bare = pass.stages.find((s) => s.acceptance.length === 0);
  if (bare !== undefined) return err({ code: "stage-without-acceptance", stage: bare.id });
  const verdicts: Record<string, StageVerdict> = {};
  let room: Room | undefined;
  for (const [k, stage] of pass.stages.entries()) {
    if (room === undefined) {
      const opened = await d.cleanRoom.open({ commit: pass.commit, name: k === 0 ? pass.room : `${pass.room}-${stage.id}`, setup: d.settings.setup });
      if (opened.isErr()) return err(opened.error);
      room = opened.value;
    }
    const v = await verifyStage(d, room, pass, stage);
    if (v.isErr()) {
      await room.dispose();
      return err(v.error);
    }
    verdicts[stage.id] = v.value;
    if (k === pass.stages.length - 1) break;
    // A room that cannot say it is as it was handed over is replaced: never reused on a guess.
    const kept = room.unchanged ? await room.unchanged() : ok(false);
    if (kept.isOk() && kept.value) continue;
    const disposed = await room.dispose();
    if (disposed.isErr()) return err(disposed.error);
    room = undefined;
  }
  const disposed = room === undefined ? ok(undefined) : await room.dispose();
  if (disposed.isErr()) return err(disposed.error);
  return ok(verdicts);
}
