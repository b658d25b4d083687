// The agent's roles in a stage after a red attempt: three blind diagnoses, one adjudication among
// the admissible ones, and the fix it chose; and what every call of an attempt carries.
import type { Stage } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import { type Brief, type Diagnosis, LENSES, type RequestOf } from "../agent/protocol.js";
import type { ExecFault } from "../fault.js";
import { ask } from "./ask.js";
import type { Deps } from "./deps.js";
import { loadFreeze } from "./freeze.js";
import type { RunState, StageLoop } from "./state.js";

type R<T> = Result<T, ExecFault>;

/** The brief of a stage: its contract section verbatim and the guardrails. */
export function briefOf(d: Deps, stage: Stage): Brief {
  const { id, label, title, instructions, exit_criterion, acceptance } = stage;
  return { stage: id, label, title, instructions, exit_criterion, acceptance, guardrails: d.contract.guardrails, contract: d.paths.contract };
}

/** What every agent call of a stage's attempt carries. */
export function callBase(d: Deps, stage: Stage, attempt: number) {
  return { cwd: d.repo, stage: stage.id, attempt, guardrails: d.contract.guardrails };
}

/** Three blind diagnoses of a frozen attempt; null when the run must stop (parked, token target). */
export async function diagnose(d: Deps, state: RunState, loop: StageLoop, stage: Stage, attempt: number, freeze: string): Promise<R<Diagnosis[] | null>> {
  const out: Diagnosis[] = [];
  for (const lens of LENSES) {
    const asked = await ask<RequestOf<"diagnose">>(d, state, "diagnose", `${stage.id}/a${attempt}/diagnose/${lens}`, async () =>
      (await loadFreeze(d, freeze)).map((f) => ({
        role: "diagnose" as const,
        model: d.settings.models.diagnose,
        ...callBase(d, stage, attempt),
        lens,
        freeze: f,
      })),
    );
    if (asked.isErr()) return err(asked.error);
    if ("stop" in asked.value) return ok(stopLoop(state, loop, stage, asked.value));
    const { tokens: _t, ...rest } = asked.value.reply;
    out.push({ lens, ...rest });
  }
  return ok(out);
}

/** Record that the run stops at this stage (parked, or at the token target); null, for the caller to return. */
export function stopLoop(state: RunState, loop: StageLoop, stage: Stage, stop: { stop: "parked" | "token-target"; reason: string }): null {
  state.stop = { status: stop.stop, stage: stage.id, reason: stop.reason };
  loop.state = stop.stop === "parked" ? "parked" : "stopped";
  loop.reason = stop.reason;
  return null;
}

/** Pick among admissible diagnoses and apply the chosen fix; the fix's commit, or null when the run must stop. */
export async function adjudicateAndFix(
  d: Deps,
  state: RunState,
  loop: StageLoop,
  stage: Stage,
  at: { attempt: number; freeze: string; admissible: Diagnosis[] },
): Promise<R<{ diagnosis: Diagnosis } | null>> {
  const { attempt, freeze, admissible } = at;
  const ruled = await ask<RequestOf<"adjudicate">>(
    d,
    state,
    "adjudicate",
    `${stage.id}/a${attempt}/adjudicate`,
    async () => ok({ role: "adjudicate" as const, model: d.settings.models.adjudicate, ...callBase(d, stage, attempt), diagnoses: admissible }),
    admissible.length,
  );
  if (ruled.isErr()) return err(ruled.error);
  if ("stop" in ruled.value) return ok(stopLoop(state, loop, stage, ruled.value));
  const diagnosis = admissible[ruled.value.reply.chosen] as Diagnosis;
  const reason = ruled.value.reply.reason;
  const next = attempt + 1;
  const fixed = await ask<RequestOf<"fix">>(d, state, "fix", `${stage.id}/a${next}/fix`, async () =>
    (await loadFreeze(d, freeze)).map((f) => ({
      role: "fix" as const,
      model: d.settings.models.fix,
      ...callBase(d, stage, next),
      brief: briefOf(d, stage),
      freeze: f,
      decision: { diagnosis, reason },
    })),
  );
  if (fixed.isErr()) return err(fixed.error);
  if ("stop" in fixed.value) return ok(stopLoop(state, loop, stage, fixed.value));
  return ok({ diagnosis });
}
