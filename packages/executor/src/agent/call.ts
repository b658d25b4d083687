import type { z } from "zod";
import { reasonOf } from "../fault.js";
import { AdjudicateReply, type Agent, type AgentRequest, DiagnoseReply, WorkReply } from "./protocol.js";

/** What one agent call came to: a valid reply and its tokens, or "returned nothing" and why. */
export type CallOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly tokens: number }
  | { readonly ok: false; readonly reason: string; readonly tokens: 0 };

/** The reply schema of each role that is ever called. */
const REPLIES = {
  execute: WorkReply,
  fix: WorkReply,
  diagnose: DiagnoseReply,
  adjudicate: AdjudicateReply,
} as const;

/** The reply type of a request's role. */
export type ReplyOf<R extends AgentRequest> = z.infer<(typeof REPLIES)[R["role"]]>;

function nothing(reason: string): CallOutcome<never> {
  return { ok: false, reason, tokens: 0 };
}

function invoke(agent: Agent, request: AgentRequest): Promise<unknown> {
  switch (request.role) {
    case "execute":
      return agent.execute(request);
    case "diagnose":
      return agent.diagnose(request);
    case "adjudicate":
      return agent.adjudicate(request);
    case "fix":
      return agent.fix(request);
  }
}

/** A reply given as text (a process's stdout) is read as JSON; an empty one is nothing. */
function asValue(raw: unknown): { value: unknown } | { empty: string } {
  if (raw === undefined || raw === null) return { empty: "empty reply" };
  if (typeof raw !== "string") return { value: raw };
  if (raw.trim() === "") return { empty: "empty reply" };
  try {
    return { value: JSON.parse(raw) };
  } catch (e) {
    return { empty: `reply is not JSON: ${reasonOf(e)}` };
  }
}

/**
 * Make one agent call and validate its reply against the role's schema. A rejection, an empty
 * reply or one that does not parse is "returned nothing" with the reason: never success.
 * `choices` bounds an adjudicator's `chosen` index.
 */
export async function callAgent<R extends AgentRequest>(agent: Agent, request: R, choices = 0): Promise<CallOutcome<ReplyOf<R>>> {
  let raw: unknown;
  try {
    raw = await invoke(agent, request);
  } catch (e) {
    return nothing(`the agent failed: ${reasonOf(e)}`);
  }
  const read = asValue(raw);
  if ("empty" in read) return nothing(read.empty);
  const parsed = REPLIES[request.role as keyof typeof REPLIES].safeParse(read.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return nothing(`invalid ${request.role} reply: ${issue?.path.join(".") || "reply"}: ${issue?.message ?? "invalid"}`);
  }
  const reply = parsed.data as ReplyOf<R>;
  if (request.role === "adjudicate" && (reply as AdjudicateReply).chosen >= choices) {
    return nothing(`invalid adjudicate reply: chosen ${(reply as AdjudicateReply).chosen} names none of the ${choices} diagnoses offered`);
  }
  return { ok: true, value: reply, tokens: reply.tokens };
}
