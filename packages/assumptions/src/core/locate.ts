import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import type { DirEntry } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { resolveLink, type Resolved } from "./links.js";
import type { DirIndex, Listings } from "./listing.js";

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

interface Step {
  readonly dir: string;
  readonly spelled: string;
  readonly index: number;
  readonly how: VariantHow | undefined;
}

const RANK = { missing: 0, variant: 1, found: 2 } as const;
const MISSING: Located = { state: "missing" };

function candidates(index: DirIndex, dir: string, name: string): ResultAsync<readonly Candidate[], CheckFault> {
  const exact = index.exact(name);
  if (exact && "ambiguous" in exact) {
    return errAsync({ code: "ambiguous-name", path: dir, names: exact.ambiguous.map((e) => e.name) });
  }
  const list: Candidate[] = exact ? [[exact.entry, undefined]] : [];
  for (const entry of index.caseVariants(name)) list.push([entry, "case"]);
  if (list.length === 0) for (const entry of index.confusables(name)) list.push([entry, "confusable"]);
  return okAsync(list);
}

function child(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

function arrive(listings: Listings, path: string, spelled: string, entry: DirEntry): ResultAsync<Located, CheckFault> {
  if (entry.type !== "symlink") return okAsync({ state: "found", spelled, entry, resolved: { path, type: entry.type } });
  return resolveLink(listings, path).map((resolved): Located => ({ state: "found", spelled, entry, resolved }));
}

function descend(listings: Listings, comps: readonly string[], at: Step, [entry, how]: Candidate): ResultAsync<Located, CheckFault> {
  const path = child(at.dir, entry.name);
  const spelled = child(at.spelled, entry.name);
  const variant = at.how ?? how;
  const last = at.index === comps.length - 1;
  if (last) return variant ? okAsync({ state: "variant", spelled, how: variant }) : arrive(listings, path, spelled, entry);
  const next = (dir: string) => walk(listings, comps, { dir, spelled, index: at.index + 1, how: variant });
  if (entry.type === "directory") return next(path);
  if (entry.type !== "symlink") return okAsync(MISSING);
  return resolveLink(listings, path).andThen((to) => (to?.type === "directory" ? next(to.path) : okAsync(MISSING)));
}

function walk(listings: Listings, comps: readonly string[], at: Step): ResultAsync<Located, CheckFault> {
  const name = comps[at.index] ?? "";
  return listings
    .index(at.dir)
    .andThen((index) => candidates(index, at.dir, name))
    .andThen((list) => {
      let best: ResultAsync<Located, CheckFault> = okAsync(MISSING);
      for (const candidate of list) {
        best = best.andThen((sofar) =>
          sofar.state === "found"
            ? okAsync(sofar)
            : descend(listings, comps, at, candidate).map((r) => (RANK[r.state] > RANK[sofar.state] ? r : sofar)),
        );
      }
      return best;
    });
}

/**
 * Finds a plan path's components among the tree's real entries: NFC-equal is the entry; equal
 * after case folding, or a confusable skeleton in another script, is a variant; else missing.
 * Every variant spelling is explored, so a variant anywhere is found.
 */
export function locate(listings: Listings, components: readonly string[]): ResultAsync<Located, CheckFault> {
  return walk(listings, components, { dir: "", spelled: "", index: 0, how: undefined });
}
