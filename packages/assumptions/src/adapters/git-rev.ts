// The revision syntax gitTree reads: the part of `git rev-parse` a plan's reader needs. A base
// (HEAD, a ref name, a commit id of 4 to 40 hex digits) followed by any chain of `~N`, `~`, `^`,
// `^N`. Everything else (`@{…}`, `:/…`, `A..B`, `^{…}`) is refused, never guessed at.
import { err, ok, type Result } from "neverthrow";
import type { TreeError } from "../tree.js";

/** One suffix: `ancestor` follows first parents `n` times (`~N`); `parent` takes the n-th parent (`^N`, `^0` the commit). */
export interface RevStep {
  readonly kind: "ancestor" | "parent";
  readonly n: number;
}

/** A ref split into its base and its suffixes, applied left to right. */
export interface Rev {
  readonly base: string;
  /** True when the base may be an abbreviated commit id (4 to 39 hex digits) if no ref has that name. */
  readonly abbreviated: boolean;
  readonly steps: readonly RevStep[];
}

/** Why a ref names no commit; `refError` turns each into its one sentence. */
export type RefProblem =
  | { readonly kind: "unsupported" }
  | { readonly kind: "missing"; readonly where: string }
  | { readonly kind: "ambiguous"; readonly count: number }
  | { readonly kind: "not-a-commit"; readonly type: string }
  | { readonly kind: "past-root"; readonly commit: string }
  | { readonly kind: "no-such-parent"; readonly commit: string; readonly n: number; readonly parents: number };

/** The accepted syntax, as every refusal states it. */
export const SUPPORTED_REFS =
  "HEAD, a branch or tag name, a full ref (refs/…), or a commit id of 4 to 40 hex digits, " +
  "each optionally followed by any chain of ~N, ~, ^ and ^N (as in HEAD~2^2)";

function sentence(ref: string, p: RefProblem): string {
  const named = `git ref ${JSON.stringify(ref)}`;
  switch (p.kind) {
    case "unsupported":
      return `${named} is not syntax gitTree reads; it reads ${SUPPORTED_REFS}`;
    case "missing":
      return `${named} was not found in ${p.where}`;
    case "ambiguous":
      return `${named} is ambiguous: ${p.count} objects match that abbreviated id; give more hex digits`;
    case "not-a-commit":
      return `${named} names a ${p.type}, not a commit`;
    case "past-root":
      return `${named} walks past the root commit ${p.commit}, which has no parent`;
    case "no-such-parent":
      return `${named} asks for parent ${p.n} of commit ${p.commit}, which has ${p.parents} parent(s)`;
  }
}

/**
 * The one place a ref's failure is worded: always `tree-not-found` at the root, its message the
 * ref's own sentence (not "the tree root does not exist": the ref is what is wrong).
 */
export function refError(ref: string, problem: RefProblem): TreeError {
  return { code: "tree-not-found", path: "", message: sentence(ref, problem) };
}

const FULL_ID = /^[0-9a-fA-F]{40}$/;
const SHORT_ID = /^[0-9a-fA-F]{4,39}$/;
// What git's check-ref-format forbids anywhere in a name (besides ~ and ^, cut off as suffixes).
const FORBIDDEN = /[\u0000-\u0020\u007f:?*[\\]|\.\.|@\{|\/\/|^\/|\/$|\.$|^@$|(^|\/)\.|\.lock(\/|$)/;

/** True for a name git could store as a ref (and so may be looked up as a file); `~` and `^` are the caller's to cut. */
export function refName(base: string): boolean {
  return base !== "" && !FORBIDDEN.test(base);
}

function parseSteps(suffixes: string): RevStep[] | undefined {
  const steps: RevStep[] = [];
  let rest = suffixes;
  while (rest !== "") {
    const m = /^([~^])([0-9]*)/.exec(rest);
    if (m === null) return undefined;
    const digits = m[2] ?? "";
    steps.push({ kind: m[1] === "~" ? "ancestor" : "parent", n: digits === "" ? 1 : Number(digits) });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** Splits a ref into base and suffixes; anything outside the supported syntax is a refusal. */
export function parseRev(ref: string): Result<Rev, TreeError> {
  const cut = ref.search(/[~^]/);
  const base = cut === -1 ? ref : ref.slice(0, cut);
  const steps = parseSteps(cut === -1 ? "" : ref.slice(cut));
  if (steps === undefined || !refName(base)) return err(refError(ref, { kind: "unsupported" }));
  if (FULL_ID.test(base)) return ok({ base: base.toLowerCase(), abbreviated: false, steps });
  return ok({ base, abbreviated: SHORT_ID.test(base), steps });
}
