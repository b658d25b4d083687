import { err, ok, type Result } from "neverthrow";
import type { DirEntry } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { resolveLink, type Resolved } from "./links.js";
import type { DirIndex, Listings } from "./listing.js";
import { chain, type Maybe } from "./maybe.js";

/** How a path's spelling differs from the plan's when it is a variant. */
export type VariantHow = "case" | "confusable";

/** Where a plan path leads in the tree. */
export type Located =
  | {
      readonly state: "found";
      /** The path as the tree spells it (may differ from the plan's in normalisation only). */
      readonly spelled: string;
      /** The entry itself, judged by lstat. */
      readonly entry: DirEntry;
      /** Where the entry leads after following links; `undefined` for a dangling link. */
      readonly resolved: Resolved;
    }
  | { readonly state: "variant"; readonly spelled: string; readonly how: VariantHow }
  | { readonly state: "missing" };

type Candidate = readonly [DirEntry, VariantHow | undefined];
type Locating = Result<Located, CheckFault>;

interface Step {
  readonly dir: string;
  readonly spelled: string;
  readonly index: number;
  readonly how: VariantHow | undefined;
}

const RANK = { missing: 0, variant: 1, found: 2 } as const;
const MISSING: Located = { state: "missing" };

function candidates(index: DirIndex, dir: string, name: string): Result<readonly Candidate[], CheckFault> {
  const exact = index.exact(name);
  if (exact && "ambiguous" in exact) {
    return err({ code: "ambiguous-name", path: dir, names: exact.ambiguous.map((e) => e.name) });
  }
  return ok(exact ? [[exact.entry, undefined]] : []);
}

function variants(index: DirIndex, name: string): readonly Candidate[] {
  const list: Candidate[] = index.caseVariants(name).map((entry) => [entry, "case"] as const);
  if (list.length === 0) for (const entry of index.confusables(name)) list.push([entry, "confusable"]);
  return list;
}

function child(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

function arrive(listings: Listings, path: string, spelled: string, entry: DirEntry): Maybe<Locating> {
  if (entry.type !== "symlink") return ok({ state: "found", spelled, entry, resolved: { path, type: entry.type } });
  return resolveLink(listings, path).then((resolved) => resolved.map((to): Located => ({ state: "found", spelled, entry, resolved: to })));
}

function descend(listings: Listings, comps: readonly string[], at: Step, [entry, how]: Candidate): Maybe<Locating> {
  const path = child(at.dir, entry.name);
  const spelled = child(at.spelled, entry.name);
  const variant = at.how ?? how;
  if (at.index === comps.length - 1) {
    return variant ? ok({ state: "variant", spelled, how: variant }) : arrive(listings, path, spelled, entry);
  }
  const next = { spelled, index: at.index + 1, how: variant };
  if (entry.type === "directory") return walk(listings, comps, { ...next, dir: path });
  if (entry.type !== "symlink") return ok(MISSING);
  return resolveLink(listings, path).then((to) => {
    if (to.isErr()) return err(to.error);
    return to.value?.type === "directory" ? walk(listings, comps, { ...next, dir: to.value.path }) : ok(MISSING);
  });
}

/** One directory's turn of a walk: its candidates for the component, tried in order. */
interface Turn {
  readonly listings: Listings;
  readonly comps: readonly string[];
  readonly at: Step;
  readonly index: DirIndex;
}

// Tries candidates from the `i`th on: the first that leads to the path wins, else the best
// (variant over missing) of those tried. The exact spelling's list comes first; variant
// spellings are looked up only when it does not lead to the path. A loop while the answers come
// at once, so thousands of variant spellings take no stack; a promise resumes it afresh.
function tryFrom(turn: Turn, list: readonly Candidate[], i: number, best: Located, exactList: boolean): Maybe<Locating> {
  for (;;) {
    if (i === list.length) {
      if (!exactList) return ok(best);
      list = variants(turn.index, turn.comps[turn.at.index] ?? "");
      i = 0;
      exactList = false;
      continue;
    }
    const got = descend(turn.listings, turn.comps, turn.at, list[i] as Candidate);
    if (got instanceof Promise) {
      const from = list;
      const next = i + 1;
      const exact = exactList;
      return got.then((r) => (r.isErr() || r.value.state === "found" ? r : tryFrom(turn, from, next, better(best, r.value), exact)));
    }
    if (got.isErr() || got.value.state === "found") return got;
    best = better(best, got.value);
    i += 1;
  }
}

function better(best: Located, got: Located): Located {
  return RANK[got.state] > RANK[best.state] ? got : best;
}

// Directories descended at once before the walk goes on through a promise, whose callback starts
// on an empty stack: a path thousands of components deep never runs out of stack.
const DEPTH_PER_TURN = 256;

function walk(listings: Listings, comps: readonly string[], at: Step): Maybe<Locating> {
  if (at.index > 0 && at.index % DEPTH_PER_TURN === 0) return Promise.resolve().then(() => walkHere(listings, comps, at));
  return walkHere(listings, comps, at);
}

function walkHere(listings: Listings, comps: readonly string[], at: Step): Maybe<Locating> {
  return chain(listings.index(at.dir), (index) => {
    if (index.isErr()) return err(index.error);
    const exact = candidates(index.value, at.dir, comps[at.index] ?? "");
    if (exact.isErr()) return err(exact.error);
    return tryFrom({ listings, comps, at, index: index.value }, exact.value, 0, MISSING, true);
  });
}

// The common case with nothing to choose: every directory on the path listed already or at once
// (a tree's `now` face), every component spelled exactly, no link. Anything else (a miss, a
// variant, a link, a listing that fails or must be waited for) takes `walk`, which also answers
// without a promise when the tree has a `now` face and no link is on the way.
function exactlyAtOnce(listings: Listings, comps: readonly string[]): Located | undefined {
  let dir = "";
  for (let i = 0; i < comps.length; i += 1) {
    const index = listings.index(dir);
    if (index instanceof Promise || index.isErr()) return undefined;
    const hit = index.value.exact(comps[i] as string);
    if (!hit || !("entry" in hit)) return undefined;
    const { entry } = hit;
    const { type } = entry;
    if (type === "symlink") return undefined;
    const path = child(dir, entry.name);
    if (i === comps.length - 1) return { state: "found", spelled: path, entry, resolved: { path, type } };
    if (type !== "directory") return undefined;
    dir = path;
  }
  return undefined;
}

/**
 * Finds a plan path's components (NFC, as parsed) among the tree's real entries: NFC-equal is
 * the entry; equal after case folding, or a confusable skeleton in another script, is a
 * variant; else missing. Every variant spelling is explored, so a variant anywhere is found.
 */
export function locate(listings: Listings, components: readonly string[]): Maybe<Locating> {
  const fast = exactlyAtOnce(listings, components);
  return fast ? ok(fast) : walk(listings, components, { dir: "", spelled: "", index: 0, how: undefined });
}
