import { err, ok, type Result } from "neverthrow";
import { callAgent, type CallOutcome, type ReplyOf } from "../agent/call.js";
import type { AgentRequest } from "../agent/protocol.js";
import type { ExecFault } from "../fault.js";
import { leftUntouched, onOwnBranch, untouchedBefore } from "./commit.js";
import { type Deps, guarded } from "./deps.js";
import { addTokens, type RunState, totalTokens } from "./state.js";

/** A request without its `try`, which `ask` numbers. */
type Untried<R extends AgentRequest> = R extends AgentRequest ? Omit<R, "try"> : never;

/** What asking came to: the reply, or the run must stop (parked or the token target reached). */
export type Asked<T> = { readonly reply: T } | { readonly stop: "parked" | "token-target"; readonly reason: string };

/**
 * Ask the agent, as one step per try: a call that returns nothing is tried again until `parkAfter`
 * calls in a row have returned nothing (the run parks). Before each call the token target is a
 * ceiling: at or past it (less the reserve), nothing more is asked. After each call the run's
 * branch must still be checked out and still hold the HEAD from before it (`onOwnBranch`); after
 * a diagnose or adjudicate call, which only reads, nothing may have changed (`leftUntouched`).
 */
export async function ask<R extends AgentRequest>(
  d: Deps,
  state: RunState,
  role: R["role"],
  name: string,
  build: () => Promise<Result<Untried<R>, ExecFault>>,
  choices = 0,
): Promise<Result<Asked<ReplyOf<R>>, ExecFault>> {
  for (let t = 1; ; t++) {
    const target = d.settings.tokenTarget;
    if (target !== null && totalTokens(state) >= target - d.settings.reserveTokens) {
      return ok({ stop: "token-target", reason: `${totalTokens(state)} tokens spent; the target is ${target} (${d.settings.reserveTokens} kept in reserve)` });
    }
    // Read outside the call's step: a resumed run checks the branch as it is now, not as recorded.
    const before = await d.git.head();
    if (before.isErr()) return err(before.error);
    const readOnly = role === "diagnose" || role === "adjudicate" ? await untouchedBefore(d, before.value) : null;
    if (readOnly?.isErr()) return err(readOnly.error);
    const out = await guarded<{ ok: true; value: CallOutcome<ReplyOf<R>> } | { ok: false; fault: ExecFault }>(d, `${name}/t${t}`, async () => {
      const request = await build();
      if (request.isErr()) return { ok: false, fault: request.error };
      const full = { ...request.value, try: t } as unknown as R;
      d.emit({ type: "agent-call", stage: full.stage, attempt: full.attempt, role: full.role, try: t });
      return { ok: true, value: await callAgent(d.agent, full, choices) };
    });
    if (!out.ok) return err(out.fault);
    const still = await onOwnBranch(d, before.value, `the ${role} call ${name}/t${t}`);
    if (still.isErr()) return err(still.error);
    if (readOnly?.isOk()) {
      const untouched = await leftUntouched(d, readOnly.value, `the ${role} call ${name}/t${t}`);
      if (untouched.isErr()) return err(untouched.error);
    }
    const call = out.value;
    state.calls += 1;
    state.tokens[role] = addTokens(state.tokens[role], call.tokens);
    d.emit({ type: "tokens", total: totalTokens(state) });
    if (call.ok) {
      state.streak = 0;
      return ok({ reply: call.value });
    }
    state.nothing += 1;
    state.streak += 1;
    state.nothingLog.push({ stage: name.split("/")[0] ?? name, role, step: name, try: t, reason: call.reason });
    d.emit({ type: "agent-nothing", stage: name.split("/")[0] ?? name, role, try: t, reason: call.reason });
    if (state.streak >= d.settings.parkAfter) {
      return ok({ stop: "parked", reason: `the agent returned nothing ${state.streak} times in a row (last: ${call.reason})` });
    }
  }
}
