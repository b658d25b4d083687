import type { z } from "zod";
import { reasonOf } from "../fault.js";
import { firstDuplicateKey, oneLine } from "@decay/portable";
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

/** The most characters of a reason kept: an agent's error, or what its reply holds, can be any length. */
const REASON_LIMIT = 4096;
/** The most characters of an agent's raw reply a reason quotes. */
const QUOTE_LIMIT = 80;

/** "Returned nothing", and why: always one line (it is printed as one), bounded. */
function nothing(reason: string): CallOutcome<never> {
  return { ok: false, reason: oneLine(reason, REASON_LIMIT), tokens: 0 };
}

/** `text` as JSON, or undefined when it is none. */
function parsedJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** How many JSON values `raw` holds one per line, when it holds two or more and nothing else; else 0. */
function valuesPerLine(raw: string): number {
  const lines = raw.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 1 && lines.every((l) => parsedJson(l) !== undefined) ? lines.length : 0;
}

/**
 * Text read as one JSON value; otherwise why not, quoting at most its first 80 characters, on one
 * line. Several values, one per line (a reply printed twice), are said to be several, not "not JSON".
 */
export function jsonReply(raw: string): { value: unknown } | { empty: string } {
  const one = parsedJson(raw);
  if (one !== undefined) {
    // JSON.parse keeps a repeated key's last value: a reply with two token counts or two summaries is ambiguous.
    const repeated = firstDuplicateKey(raw);
    return repeated === undefined ? one : { empty: `a reply that repeats the key ${JSON.stringify(repeated.key)}: "${oneLine(raw, QUOTE_LIMIT)}"` };
  }
  const many = valuesPerLine(raw);
  const what = many > 0 ? `${many} JSON values, one per line, where the protocol takes one reply` : "a reply that is not JSON";
  return { empty: `${what}: "${oneLine(raw, QUOTE_LIMIT)}"` };
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
  return jsonReply(raw);
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
