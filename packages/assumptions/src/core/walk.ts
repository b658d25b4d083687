// The walk: a plan path's components looked for level by level, the exact spelling first, then every
// case or confusable spelling, through links, for a path not found as written in a plain directory.
import { err, ok, type Result } from "neverthrow";
import type { DirEntry } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { MAX_HOPS, resolveLinkCounted } from "./links.js";
import type { CaseGroup, DirIndex } from "./dir-index.js";
import { LeafCrowd } from "./leaf-crowd.js";
import { isRepository, type Listings, repositoryFault } from "./listing.js";
import type { Located, VariantHow } from "./locate.js";
import type { Step } from "./plain.js";
import { TextMap } from "./text-map.js";
import { child } from "./tree-path.js";

type Candidate = readonly [DirEntry, VariantHow | undefined];
/** What locating a path gives: where it leads, or the fault met on the way. */
export type Locating = Result<Located, CheckFault>;

const RANK = { missing: 0, variant: 1, found: 2 } as const;
const MISSING: Located = { state: "missing" };

function candidates(index: DirIndex, dir: string, name: string): Result<readonly Candidate[], CheckFault> {
  const exact = index.exact(name);
  if (exact && "ambiguous" in exact) {
    return err({ code: "ambiguous-name", path: dir, names: exact.ambiguous.map((e) => e.name) });
  }
  return ok(exact ? [[exact.entry, undefined]] : []);
}

/**
 * The case, else the confusable, spellings of `name` in a directory (never the exact one); `group`
 * is its `caseGroup`, when the directory holds no exact spelling and the caller has it already.
 */
export function variants(index: DirIndex, name: string, group?: CaseGroup): readonly Candidate[] {
  const list: Candidate[] = (group?.entries ?? index.caseVariants(name)).map((entry) => [entry, "case"] as const);
  if (list.length === 0) for (const entry of index.confusableGroup(name).entries) list.push([entry, "confusable"]);
  return list;
}

// The spellings a `name` its directory does not hold exactly is looked for among: its case
// spellings (`cased`, its `caseGroup`), else its confusable ones.
function variantGroup(index: DirIndex, name: string, cased: CaseGroup): readonly [CaseGroup, VariantHow] {
  return cased.entries.length > 0 ? [cased, "case"] : [index.confusableGroup(name), "confusable"];
}

/**
 * The last level's answer from the variants of a `name` its directory does not hold exactly (its
 * `caseGroup`), when they are all plain files: nothing there can fault or lead on, so the first is
 * the walk's answer (a variant), without a turn for each. With no case spelling there, the same of
 * its confusable spellings. `undefined` otherwise: the caller turns them.
 */
function plainVariant(at: Step, index: DirIndex, name: string, cased: CaseGroup): Locating | undefined {
  const [group, how] = variantGroup(index, name, cased);
  const first = group.entries[0];
  return group.plain && first !== undefined ? ok({ state: "variant", spelled: child(at.spelled, first.name), how: at.how ?? how }) : undefined;
}

/** The last level's answer from a missing name's variants, and the most links a variant's path followed (-1: none). */
interface LastAnswer {
  readonly result: Locating | undefined;
  readonly reach: number;
}

// Per group of variants (a directory's case, else confusable, spellings of a name it does not hold
// exactly), the last level's answer from them by where the walk stood there: every name with that
// group gets the same, so rows naming K spellings of one missing name turn the K entries once,
// not once per row. Keyed by the group object, which lives as long as its directory's index.
// The place holds paths, which a plan may make longer than V8 hashes by their characters: a `TextMap`.
const lastAnswers = new WeakMap<CaseGroup, TextMap<Promise<LastAnswer>>>();

/**
 * The variants a name its directory does not hold exactly is looked for among (its `caseGroup`
 * `cased`, else its confusable group), and the answer from them at `at` for a walk (`follow`:
 * links are followed) or a scan (`follow` false: undefined at a link, which the caller walks in
 * full), made once per group, place and kind.
 */
function fromVariants(listings: Listings, at: Step, index: DirIndex, name: string, cased: CaseGroup, follow: boolean): Promise<LastAnswer> {
  const [group, how] = variantGroup(index, name, cased);
  // No variant at all (the one empty group every directory shares): nothing to remember.
  if (group.entries.length === 0) return Promise.resolve({ result: ok(MISSING), reach: -1 });
  let byPlace = lastAnswers.get(group);
  if (byPlace === undefined) lastAnswers.set(group, (byPlace = new TextMap()));
  const place = `${follow ? "walk" : "scan"}\u0000${at.hops}\u0000${at.how ?? ""}\u0000${at.dir}\u0000${at.spelled}`;
  let answer = byPlace.get(place);
  if (answer === undefined) byPlace.set(place, (answer = variantsAnswer(listings, at, group.entries, at.how ?? how, follow)));
  return answer;
}

// The first fault or found entry among `entries` (each arrived at as the walk would), else the best.
async function variantsAnswer(listings: Listings, at: Step, entries: readonly DirEntry[], how: VariantHow, follow: boolean): Promise<LastAnswer> {
  let reach = -1;
  const heard = (hops: number) => {
    reach = Math.max(reach, hops);
  };
  const result = await firstFound(
    entries.map((entry): Candidate => [entry, how]),
    (candidate) => arriveLast(listings, at, candidate, follow, heard),
  );
  return { result, reach };
}

/**
 * What the candidates give, each in turn: the first fault or found one, else the best of them
 * (variant over missing); `undefined` as soon as one gives `undefined` (a link the caller walks).
 */
async function firstFound(candidates: Iterable<Candidate>, each: (candidate: Candidate) => Promise<Locating | undefined>): Promise<Locating | undefined> {
  let best = MISSING;
  for (const candidate of candidates) {
    const got = await each(candidate);
    if (got === undefined || got.isErr() || got.value.state === "found") return got;
    best = better(best, got.value);
  }
  return ok(best);
}

// The exact spelling's candidate, then (only when it did not lead to the path) the variants.
function* exactThenVariants(exact: readonly Candidate[], index: DirIndex, name: string, group?: CaseGroup): Generator<Candidate> {
  yield* exact;
  yield* variants(index, name, group);
}

/**
 * A last component's candidate arrived at as the walk would (`heard` hears the links followed), a
 * variant spelling answering as that variant; `undefined` at a link when `follow` is false.
 */
async function arriveLast(
  listings: Listings,
  at: Step,
  [entry, how]: Candidate,
  follow: boolean,
  heard?: (hops: number) => void,
): Promise<Locating | undefined> {
  if (!follow && entry.type === "symlink") return undefined;
  const spelled = child(at.spelled, entry.name);
  return lastSeen(spelled, at.how ?? how, await arrive(listings, child(at.dir, entry.name), spelled, entry, at.hops, heard));
}

/** A nested repository is a `submodule` fault when named (unless the tree descends into them); an unlistable directory is its listing's fault. */
async function unlessRepository(listings: Listings, dir: string, spelled: string, then: Locating): Promise<Locating> {
  const fault = await repositoryFault(listings, dir, spelled);
  return fault === undefined ? then : err(fault);
}

// `reached` hears how many links the path has followed once it arrives (a link named last adds its chain).
export async function arrive(
  listings: Listings,
  path: string,
  spelled: string,
  entry: DirEntry,
  hops: number,
  reached?: (hops: number) => void,
): Promise<Locating> {
  if (entry.type === "submodule") return err({ code: "submodule", path: spelled });
  if (entry.type === "directory")
    return unlessRepository(listings, path, spelled, ok({ state: "found", spelled, entry, resolved: { path, type: "directory" } }));
  if (entry.type !== "symlink") return ok({ state: "found", spelled, entry, resolved: { path, type: entry.type } });
  const to = await resolveLinkCounted(listings, path, hops);
  if (to.isOk()) reached?.(to.value.hops);
  return to.map(({ resolved }): Located => ({ state: "found", spelled, entry, resolved }));
}

/**
 * One path's walk: the listings, the plan's components, and what each turn under a variant
 * spelling found, by where it stood (real directory, component, kind of variant, links followed).
 * Two spellings that lead to one directory (`s -> .` beside `S -> .`) reach the same turn, and
 * without the memo each level would double the walk. A turn reached again always yields what it
 * yielded first, and that first answer already stands at every level above, so the answer is as
 * if walked again.
 */
export interface Walking {
  readonly listings: Listings;
  /** The plan's components from the walk's first level down: component `k` is `comps[k - base]`. */
  readonly comps: readonly string[];
  readonly base: number;
  /** Turns by where they stood and the links followed before them. */
  readonly turns: Map<string, Turned>;
  /** The first turn made from each place, whatever the links before it: see `walk`. */
  readonly anyHops: Map<string, Turned>;
  /** The most links any path of the turn under way has followed so far. */
  reach: number;
  /**
   * Set when the walk only scans the directories above the last component (`scanLeaves`): each
   * turn at the last level is logged here in the walk's order instead of being made, and so is
   * each spelling on the way below which nothing was logged.
   */
  readonly leaves?: LeafEvent[];
}

/**
 * What a scan of a plan directory's spellings met, in the walk's order: a directory the last
 * component is to be looked for in (`leaf`), or a spelling of a directory on the way below which
 * nothing was met (`end`: an entry that is no directory, a dangling link, a directory without the
 * next component in any spelling).
 */
export type LeafEvent = { readonly kind: "leaf"; readonly at: Step; readonly index: DirIndex } | { readonly kind: "end"; readonly at: Step };

/**
 * A scan's log, the fault that ended it, if one did (everything after it in the walk's order is
 * never reached), and its leaves by the spellings they hold.
 */
export interface LeafScan {
  readonly events: readonly LeafEvent[];
  readonly fault: CheckFault | undefined;
  readonly crowd: LeafCrowd;
}

/** What a turn yielded, and the most links any path below it had followed (`reach`). */
interface Turned {
  readonly result: Locating;
  readonly reach: number;
  readonly hops: number;
}

async function descend(w: Walking, at: Step, candidate: Candidate): Promise<Locating> {
  const { listings, comps, base } = w;
  const [entry, how] = candidate;
  const path = child(at.dir, entry.name);
  const spelled = child(at.spelled, entry.name);
  const variant = at.how ?? how;
  if (entry.type === "submodule") return err({ code: "submodule", path: spelled });
  if (at.index - base === comps.length - 1) return (await arriveLast(listings, at, candidate, true, (hops) => reaching(w, hops))) as Locating;
  const next: Step = { dir: path, spelled, index: at.index + 1, how: variant, hops: at.hops };
  const logged = w.leaves?.length;
  const below = await beneath(w, next, entry);
  // Scanning, a spelling below which nothing was logged is an event of its own: what it yields
  // (missing, or under a variant spelling that variant) is the same for every last component.
  if (logged !== undefined && w.leaves?.length === logged && below.isOk() && below.value.state === "missing") w.leaves.push({ kind: "end", at: next });
  return missingUnder(next, below);
}

/**
 * A candidate of the last level as the walk sees it once arrived at. A variant is what is there
 * under another spelling: the same entry, with the same faults (a nested repository, a link out of
 * the root or looping, a directory that cannot be listed) as when named exactly or walked through,
 * so that every depth and every reader agree.
 */
function lastSeen(spelled: string, variant: VariantHow | undefined, arrived: Locating): Locating {
  return variant !== undefined && arrived.isOk() ? ok({ state: "variant", spelled, how: variant }) : arrived;
}

/**
 * What the walk below `at` found, as its parent sees it: under a variant spelling, a missing rest
 * is still that variant (on a case-insensitive checkout the plan's path would land in it).
 */
function missingUnder(at: Step, below: Locating): Locating {
  return at.how !== undefined && below.isOk() && below.value.state === "missing" ? ok({ state: "variant", spelled: at.spelled, how: at.how }) : below;
}

/** The walk's next turn below `entry` (a directory, or a link to one); anything else leads nowhere. */
async function beneath(w: Walking, next: Step, entry: DirEntry): Promise<Locating> {
  if (entry.type === "directory") return walk(w, next);
  if (entry.type !== "symlink") return ok(MISSING);
  const to = await resolveLinkCounted(w.listings, next.dir, next.hops);
  if (to.isErr()) return err(to.error);
  const { resolved, hops } = to.value;
  reaching(w, hops);
  return resolved?.type === "directory" ? walk(w, { ...next, dir: resolved.path, hops }) : ok(MISSING);
}

function better(best: Located, got: Located): Located {
  return RANK[got.state] > RANK[best.state] ? got : best;
}

function reaching(w: Walking, hops: number): void {
  w.reach = Math.max(w.reach, hops);
}

// A turn of the walk, the one made before when a variant spelling has led there already.
// Reached again after other links (twin links `A -> a` beside `a` at every level put each level
// behind 0, 1, 2, ... links), it yields what it yielded first when that held no fault and the
// links it went on to follow, added to the links before it now, stay within the limit: every
// link on its paths then resolves as it did, so the answer is the same, and each place is
// turned once, not once per count of links before it. Otherwise it is turned again for that
// count, once. (A walk is one chain of awaits and a turn's index only grows below it, so a turn
// met again has finished.)
export async function walk(w: Walking, at: Step): Promise<Locating> {
  // Only a variant spelling can lead two ways to one turn: the exact one is a single path.
  if (at.how === undefined) return turn(w, at);
  const place = `${at.index}/${at.how}/${at.dir}`;
  const first = w.anyHops.get(place);
  const reuse = first?.result.isOk() && at.hops + (first.reach - first.hops) <= MAX_HOPS;
  const again = reuse ? first : w.turns.get(`${at.hops}/${place}`);
  if (again !== undefined) {
    reaching(w, at.hops + (again.reach - again.hops));
    return again.result;
  }
  const outer = w.reach;
  w.reach = at.hops;
  const result = await turn(w, at);
  const turned = { result, reach: w.reach, hops: at.hops };
  w.reach = Math.max(outer, turned.reach);
  w.turns.set(`${at.hops}/${place}`, turned);
  if (first === undefined) w.anyHops.set(place, turned);
  return result;
}

// One directory's turn: the exact spelling's candidate first, then (only when it does not lead to
// the path) every case or confusable spelling; the first that leads to the path wins, else the
// best (variant over missing) of those tried. Each level awaits its listing, so a path thousands
// of components deep resumes on a fresh stack at every level.
async function turn(w: Walking, at: Step): Promise<Locating> {
  const { listings, comps, base } = w;
  const index = await listings.index(at.dir);
  if (index.isErr()) return err(index.error);
  if (isRepository(listings, at.dir, index.value)) return err({ code: "submodule", path: at.spelled });
  if (w.leaves !== undefined && at.index - base === comps.length - 1) {
    w.leaves.push({ kind: "leaf", at, index: index.value });
    return ok(MISSING);
  }
  const name = comps[at.index - base] ?? "";
  const exact = candidates(index.value, at.dir, name);
  if (exact.isErr()) return err(exact.error);
  const group = exact.value.length === 0 ? index.value.caseGroup(name) : undefined;
  if (group !== undefined && at.index - base === comps.length - 1) {
    const quick = plainVariant(at, index.value, name, group);
    if (quick !== undefined) return quick;
    const { result, reach } = await fromVariants(listings, at, index.value, name, group, true);
    if (reach !== -1) reaching(w, reach);
    return result as Locating;
  }
  return (await firstFound(exactThenVariants(exact.value, index.value, name, group), (candidate) => descend(w, at, candidate))) as Locating;
}

/**
 * The directories a walk for a path under one plan directory would look for its last component in,
 * and the spellings on the way that lead nowhere, in the walk's order (`comps` holds the plan
 * directory's components from `start` down, then a placeholder for the last one). Rows under one
 * plan directory share it: each is then answered by `viaLeaves`, at the cost of its last level
 * alone, however many spellings of the directories above there are.
 */
export async function scanLeaves(listings: Listings, comps: readonly string[], start: Step): Promise<LeafScan> {
  const events: LeafEvent[] = [];
  const scanned = await walk({ listings, comps, base: start.index, turns: new Map(), anyHops: new Map(), reach: start.hops, leaves: events }, start);
  return { events, fault: scanned.isErr() ? scanned.error : undefined, crowd: new LeafCrowd(events) };
}

/**
 * What the walk for `name` under a scanned plan directory finds: the scan's events taken in order,
 * each leaf's last level turned for `name` as the walk would turn it, the first fault or found entry
 * the answer, else the best of the rest. Undefined when `name` is a link in some leaf: following it
 * counts links the scan did not, so the caller walks that path in full.
 */
export function viaLeaves(listings: Listings, scan: LeafScan, name: string): Promise<Locating | undefined> {
  // With many leaves, only those holding a spelling of `name` are turned, once per name.
  const held = scan.crowd.leavesFor(name);
  return held === undefined ? lastTurns(listings, scan, name) : scan.crowd.answer(name, () => lastTurns(listings, scan, name, held));
}

// `viaLeaves` through the leaves at `held` alone when given: the others answer as a leaf without
// a spelling of `name` does, which only the first of them that answers a variant can change.
async function lastTurns(listings: Listings, scan: LeafScan, name: string, held?: readonly number[]): Promise<Locating | undefined> {
  let best = MISSING;
  let bestAt = Number.POSITIVE_INFINITY;
  for (const at of held ?? scan.events.keys()) {
    const event = scan.events[at] as LeafEvent;
    const got = event.kind === "end" ? missingUnder(event.at, ok(MISSING)) : await lastTurn(listings, event.at, event.index, name);
    if (got === undefined) return undefined;
    if (got.isErr() || got.value.state === "found") return got;
    if (RANK[got.value.state] > RANK[best.state]) [best, bestAt] = [got.value, at];
  }
  const other = held === undefined ? -1 : scan.crowd.firstVariant(held, bestAt);
  const before = other === -1 ? undefined : missingUnder((scan.events[other] as LeafEvent).at, ok(MISSING));
  if (before?.isOk()) best = before.value;
  return scan.fault === undefined ? ok(best) : err(scan.fault);
}

// The last level's turn in leaf `at` for `name`, as its parent sees it; undefined for a link.
async function lastTurn(listings: Listings, at: Step, index: DirIndex, name: string): Promise<Locating | undefined> {
  const exact = candidates(index, at.dir, name);
  if (exact.isErr()) return err(exact.error);
  const group = exact.value.length === 0 ? index.caseGroup(name) : undefined;
  if (group !== undefined) {
    const answer = plainVariant(at, index, name, group) ?? (await fromVariants(listings, at, index, name, group, false)).result;
    return answer === undefined ? undefined : missingUnder(at, answer);
  }
  const got = await firstFound(exactThenVariants(exact.value, index, name), (candidate) => arriveLast(listings, at, candidate, false));
  return got === undefined ? undefined : missingUnder(at, got);
}
