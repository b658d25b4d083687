import { err, ok, type Result } from "neverthrow";
import type { DirEntry } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { resolveLink, type Resolved } from "./links.js";
import type { DirIndex, Listings } from "./listing.js";
import type { Maybe } from "./maybe.js";

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

async function arrive(listings: Listings, path: string, spelled: string, entry: DirEntry): Promise<Locating> {
  if (entry.type !== "symlink") return ok({ state: "found", spelled, entry, resolved: { path, type: entry.type } });
  const resolved = await resolveLink(listings, path);
  return resolved.map((to): Located => ({ state: "found", spelled, entry, resolved: to }));
}

async function descend(listings: Listings, comps: readonly string[], at: Step, [entry, how]: Candidate): Promise<Locating> {
  const path = child(at.dir, entry.name);
  const spelled = child(at.spelled, entry.name);
  const variant = at.how ?? how;
  if (at.index === comps.length - 1) {
    return variant ? ok({ state: "variant", spelled, how: variant }) : arrive(listings, path, spelled, entry);
  }
  const next = { spelled, index: at.index + 1, how: variant };
  if (entry.type === "directory") return walk(listings, comps, { ...next, dir: path });
  if (entry.type !== "symlink") return ok(MISSING);
  const to = await resolveLink(listings, path);
  if (to.isErr()) return err(to.error);
  return to.value?.type === "directory" ? walk(listings, comps, { ...next, dir: to.value.path }) : ok(MISSING);
}

async function walk(listings: Listings, comps: readonly string[], at: Step): Promise<Locating> {
  const name = comps[at.index] ?? "";
  const index = await listings.index(at.dir);
  if (index.isErr()) return err(index.error);
  const exact = candidates(index.value, at.dir, name);
  if (exact.isErr()) return err(exact.error);
  let best: Located = MISSING;
  // The exact spelling first; variant spellings only when it does not lead to the path.
  for (const list of [exact.value, undefined]) {
    for (const candidate of list ?? variants(index.value, name)) {
      const got = await descend(listings, comps, at, candidate);
      if (got.isErr() || got.value.state === "found") return got;
      if (RANK[got.value.state] > RANK[best.state]) best = got.value;
    }
  }
  return ok(best);
}

// The common case without a promise: every directory on the path listed already or at once (a
// tree's `now` face), every component spelled exactly, no link. Anything else (a miss, a
// variant, a link, a listing that fails or must be waited for) takes `walk`.
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
