import type { Role } from "../agent/protocol.js";
import type { NothingReturned, RefusedFix, StageState, TokensByRole } from "../schema.js";

/** Why the whole run stopped early, when it did. */
export type Stop =
  | { readonly status: "parked"; readonly stage: string; readonly reason: string }
  | { readonly status: "token-target"; readonly stage: string; readonly reason: string }
  | { readonly status: "stale-plan"; readonly stage: string; readonly reason: string; readonly diverged: readonly string[] };

/** The run's running totals; the body alone changes them, from step results only. */
export interface RunState {
  readonly tokens: TokensByRole;
  calls: number;
  nothing: number;
  /** Calls in a row that returned nothing. */
  streak: number;
  attempts: number;
  stop: Stop | null;
  /** Every call that returned nothing, and why (the reason reaches the report). */
  readonly nothingLog: NothingReturned[];
}

/** A fresh state. */
export function newState(): RunState {
  const tokens = { execute: 0, diagnose: 0, adjudicate: 0, fix: 0, verify: 0 } satisfies Record<Role, number>;
  return { tokens, calls: 0, nothing: 0, streak: 0, attempts: 0, stop: null, nothingLog: [] };
}

/** Tokens spent so far, every role. */
export function totalTokens(state: RunState): number {
  return Object.values(state.tokens).reduce(addTokens, 0);
}

/** A sum of token counts, held at the largest exact integer: the report's schema bounds it there. */
export function addTokens(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_SAFE_INTEGER);
}

/** What the loop made of one stage. */
export interface StageLoop {
  state: StageState;
  reason: string | null;
  attempts: number;
  ledger: string[];
  freeze: string[];
  refused: RefusedFix[];
  diff: { files: number; insertions: number; deletions: number } | null;
}

/** A stage the loop has not touched yet. */
export function newLoop(state: StageState = "not-started", reason: string | null = null): StageLoop {
  return { state, reason, attempts: 0, ledger: [], freeze: [], refused: [], diff: null };
}
