// Which commit a ref names: its base through the refs (or, when no ref has that name, as an
// abbreviated id), peeled to a commit, then its `~`/`^` suffixes walked through parent lists.
import { expandOid } from "isomorphic-git";
import { err, errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import type { TreeError } from "../tree.js";
import { peel } from "./git-commit.js";
import { type GitFs, gitCall, objectProblem, type RepoLayout, resolveName, shallowCommits } from "./git-repo.js";
import { parseRev, type RefProblem, refError, type Rev, type RevStep } from "./git-rev.js";
import { DEFAULT_LIMITS, gitError, type ObjectReader, openStore } from "./git-store.js";
import { errorCode, errorWords, joinTree, treeError } from "./tree-error.js";

/**
 * One resolution: the repository, the ref as the user gave it, isomorphic-git's cache (for
 * abbreviated ids), and the object reader commits and tags are read through (the store's: vetted,
 * and checked against their ids).
 */
export interface Lookup {
  readonly fs: GitFs;
  readonly layout: RepoLayout;
  readonly ref: string;
  readonly cache: object;
  readonly read: ObjectReader;
  /** The commits of a shallow clone's boundary (`shallow`), read as having no parents; read by `resolveCommit`. */
  readonly shallow?: ReadonlySet<string>;
}

/** A commit, its root tree and its parents, in the order the commit lists them. */
export interface Commit {
  readonly oid: string;
  readonly tree: string;
  readonly parents: readonly string[];
}

function dataOf(e: unknown): Record<string, unknown> {
  const data = (e as { data?: unknown } | null)?.data;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
}

/** The ref problem an isomorphic-git failure means, or `undefined` when it is an I/O failure. */
function problemOf(e: unknown, where: string): RefProblem | undefined {
  const code = errorCode(e);
  if (code === "NotFoundError") return { kind: "missing", where };
  if (code === "AmbiguousError") {
    const matches = dataOf(e).matches;
    return { kind: "ambiguous", count: Array.isArray(matches) ? matches.length : 2 };
  }
  if (code === "ObjectTypeError") return { kind: "not-a-commit", type: String(dataOf(e).actual ?? "non-commit") };
  return undefined;
}

/** Runs one isomorphic-git call (which may throw synchronously); its failure becomes the ref's fault. */
function attempt<T>(at: Lookup, run: () => Promise<T>): ResultAsync<T, TreeError> {
  return gitCall(run, (e) => {
    const problem = problemOf(e, at.layout.commondir);
    if (problem !== undefined) return refError(at.ref, problem);
    return treeError("tree-io", "", `resolving git ref ${JSON.stringify(at.ref)}: ${errorWords(e)}`);
  });
}

/** The object the base names: a ref (git's order: refs win), else an abbreviated id's one match. */
function baseOid(at: Lookup, rev: Rev): ResultAsync<string, TreeError> {
  const { fs, layout, cache } = at;
  return resolveName(fs, layout, rev.base).andThen((oid) => {
    if (oid !== undefined) return okAsync(oid);
    if (!rev.abbreviated) return errAsync(refError(at.ref, { kind: "missing", where: layout.commondir }));
    return attempt(at, () => expandOid({ fs, gitdir: layout.commondir, oid: rev.base.toLowerCase(), cache }));
  });
}

/**
 * Reads one object through the store (vetted, checked against its id) and parses what peeling
 * needs. The object the ref itself names (`named`) missing is the ref's fault ("not found"); any
 * other failure, a missing parent or tag target included, names the object.
 */
function objectAt(at: Lookup, oid: string, named: boolean) {
  return gitCall(
    () => at.read(oid).then((o) => peel(oid, o)),
    (e) => {
      const problem = named ? problemOf(e, at.layout.commondir) : undefined;
      return problem !== undefined ? refError(at.ref, problem) : treeError("tree-io", "", objectProblem(e, oid, at.layout.commondir));
    },
  );
}

/** Annotated tags peeled at most this many times: a longer chain is refused, not followed. */
const MAX_PEEL = 64;

/**
 * Reads a commit, peeling annotated tags (each tag read like the commit); a tree or blob
 * is `not-a-commit`. `named`: `start` is the object the ref names (not a parent reached by a suffix).
 */
async function commitAt(at: Lookup, start: string, named: boolean): Promise<Result<Commit, TreeError>> {
  let oid = start;
  let tag: { oid: string; says: string } | undefined;
  for (let peeled = 0; peeled <= MAX_PEEL; peeled++) {
    const read = await objectAt(at, oid, named && peeled === 0);
    if (read.isErr()) return err(read.error);
    const o = read.value;
    if (tag !== undefined && tag.says !== o.type) {
      const wrong = gitError("InternalError", `the tag ${tag.oid} says ${oid} is a ${tag.says}; it is a ${o.type}`);
      return err(treeError("tree-io", "", objectProblem(wrong, tag.oid, at.layout.commondir)));
    }
    if (o.type === "commit") return ok({ oid, tree: o.tree, parents: at.shallow?.has(oid) === true ? [] : o.parents });
    if (o.type !== "tag") return err(refError(at.ref, { kind: "not-a-commit", type: o.type }));
    tag = { oid, says: o.targetType };
    oid = o.target;
  }
  return err(treeError("tree-io", "", `resolving git ref ${JSON.stringify(at.ref)}: more than ${MAX_PEEL} annotated tags in a chain`));
}

/** Applies one suffix: `~N` takes the first parent N times; `^N` the N-th parent once (`^0`: none). */
async function applyStep(at: Lookup, from: Commit, step: RevStep): Promise<Result<Commit, TreeError>> {
  const hops = step.kind === "ancestor" ? step.n : Math.min(step.n, 1);
  const index = step.kind === "ancestor" ? 0 : step.n - 1;
  let here = from;
  for (let i = 0; i < hops; i++) {
    const next = here.parents[index];
    if (next === undefined) {
      const problem: RefProblem =
        step.kind === "ancestor"
          ? { kind: "past-root", commit: here.oid }
          : { kind: "no-such-parent", commit: here.oid, n: step.n, parents: here.parents.length };
      return err(refError(at.ref, problem));
    }
    const read = await commitAt(at, next, false);
    if (read.isErr()) return err(read.error);
    here = read.value;
  }
  return ok(here);
}

async function applySteps(at: Lookup, start: Commit, steps: readonly RevStep[]): Promise<Result<Commit, TreeError>> {
  let here = start;
  for (const step of steps) {
    const next = await applyStep(at, here, step);
    if (next.isErr()) return err(next.error);
    here = next.value;
  }
  return ok(here);
}

/**
 * The commit `ref` names in the repository, as `git rev-parse REF^{commit}` would give it, for
 * the syntax `parseRev` accepts, with its root tree; every object on the way (tags peeled,
 * parents walked, a shallow commit read as a root) is read through `lookup.read`. Any other outcome is a `TreeError`.
 */
export function resolveCommit(lookup: Lookup): ResultAsync<Commit, TreeError> {
  return parseRev(lookup.ref)
    .asyncAndThen((rev) => shallowCommits(lookup.fs, lookup.layout).map((shallow) => ({ rev, at: { ...lookup, shallow } })))
    .andThen(({ rev, at }) =>
      baseOid(at, rev)
        .andThen((oid) => new ResultAsync(commitAt(at, oid, true)))
        .andThen((start) => new ResultAsync(applySteps(at, start, rev.steps))),
    );
}

/** The commit id `ref` names in the repository `layout` (`resolveCommit` through a store of the default limits). */
export function resolveRev(fs: GitFs, layout: RepoLayout, ref: string, cache: object = {}): ResultAsync<string, TreeError> {
  const read = openStore(fs, joinTree(layout.commondir, "objects"), DEFAULT_LIMITS);
  return resolveCommit({ fs, layout, ref, cache, read }).map((c) => c.oid);
}
