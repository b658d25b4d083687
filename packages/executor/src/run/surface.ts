import { authorAssumptions, checkTree, describeFault, parseAssumptions } from "@decay/assumptions";
import type { Contract } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, inRepo, readBytes, readText, writeFile } from "./deps.js";
import { matchGlobs } from "./glob.js";
import { manifestEdit } from "./manifest-edit.js";
import { manifestsOf, type Program, programsOf } from "./manifests.js";
import { inRepository } from "./paths.js";
import { planPath } from "./plan-place.js";

/** Each word, and the value of a `--opt=value` word after it. */
function splitOptions(list: readonly string[]): string[] {
  return list.flatMap((w) => (w.includes("=") ? [w, w.slice(w.indexOf("=") + 1)] : [w])).filter((w) => w !== "");
}

/** Words of a command line that could name a file: split on blanks and shell operators, `--opt=value` split. */
function words(command: string): string[] {
  return splitOptions(command.split(/[\s;|&()<>]+/));
}

// A word that starts from the working directory the command runs in, the repository's top.
const FROM_CWD = /^(?:\$PWD|\$\{PWD\}|`pwd`)\//;

/**
 * The repository paths a word may name, as the shell and git would read it: quotes and
 * backslashes dropped (`scri""pts/x`), a `$PWD/` or `` `pwd`/ `` start dropped, `//`, `./` and
 * `..` worked out, and an absolute path under the repository (`repo`) made relative. An absolute
 * path is also tried from the top (`$(pwd)/x` is split into `$`, `pwd` and `/x`): pinning a file
 * too many is safe, one too few is not.
 */
function repoPaths(word: string, repo: string | undefined, dir = ""): string[] {
  // Quotes first, so `"$PWD"/x` and `"$(pwd)/x"` lose their start too; a backtick last, after `` `pwd` ``.
  const bare = word
    .replace(/['"\\]/g, "")
    .replace(FROM_CWD, "")
    .replace(/`/g, "");
  // A relative word is read from the directory the program runs in; an absolute one from the top.
  const tries: [string, string][] = [[dir, bare]];
  if (bare.startsWith("/")) {
    if (repo !== undefined && bare.startsWith(`${repo}/`)) tries.push(["", bare.slice(repo.length + 1)]);
    tries.push(["", bare.replace(/^\/+/, "")]);
  }
  const paths: string[] = [];
  for (const [from, t] of tries) {
    const path = inRepository(from, t.replace(/\/+$/, ""));
    if (path !== null && path !== "") paths.push(path);
  }
  return paths;
}

/**
 * The repository paths an acceptance command may name: every word read from the top, and each
 * program's arguments read again from every directory it may run in (after `cd tools/x &&`,
 * `../check.sh` is `tools/check.sh`; `make -C sub`): pinning a file too many is safe.
 */
function commandPaths(command: string, programs: readonly Program[], repo: string | undefined): string[] {
  const paths = words(command).flatMap((word) => repoPaths(word, repo));
  for (const { args, dirs } of programs) {
    for (const dir of dirs) {
      if (dir === "") continue;
      for (const arg of splitOptions(args)) paths.push(...repoPaths(arg, repo, dir));
    }
  }
  return paths;
}

/** The workspace manifests a workspace-wide package-manager run reads besides every package.json. */
const WORKSPACE_FILES = ["pnpm-workspace.yaml", "lerna.json", "nx.json", "turbo.json"];

/**
 * The acceptance surface at a commit: every tracked file an acceptance command of the contract
 * names (a directory named pins every file under it), the manifests that decide what a command
 * runs (`manifestsOf`: package.json for `npm test`, the Makefile for `make`), the plan file (also
 * at `plan`, where `planPath` placed it), and every file the globs match.
 */
export function surfacePaths(contract: Contract, files: readonly string[], globs: readonly string[], repo?: string, plan: string | null = null): string[] {
  return [...surfaceOf(contract, files, globs, repo, plan).paths].sort();
}

/** The surface (see `surfacePaths`) and, of it, the package.json files pinned only as what a package manager reads. */
interface Surface {
  readonly paths: ReadonlySet<string>;
  readonly packageManifests: ReadonlySet<string>;
}

/**
 * The surface (see `surfacePaths`) of `files`. `plan` is the plan's path from the top where the
 * filesystem placed it (`planPath`); the contract's own spelling of it is tried as well.
 */
function surfaceOf(contract: Contract, files: readonly string[], globs: readonly string[], repo?: string, plan: string | null = null): Surface {
  const tracked = new Set(files);
  const named = new Set<string>();
  const manifests = new Set<string>();
  for (const row of contract.stages.flatMap((s) => s.acceptance)) {
    const programs = programsOf(row.run);
    for (const w of commandPaths(row.run, programs, repo)) {
      if (tracked.has(w)) named.add(w);
      else for (const f of files) if (f.startsWith(`${w}/`)) named.add(f);
    }
    const read = manifestsOf(row.run, programs);
    for (const p of read.paths) if (tracked.has(p)) manifests.add(p);
    if (read.everyPackage) {
      for (const f of files) if (f === "package.json" || f.endsWith("/package.json") || WORKSPACE_FILES.includes(f)) manifests.add(f);
    }
  }
  for (const p of [...(plan === null ? [] : [plan]), ...repoPaths(contract.plan, repo)]) if (tracked.has(p)) named.add(p);
  for (const f of matchGlobs(files, globs)) named.add(f);
  const packageManifests = new Set([...manifests].filter((p) => !named.has(p) && (p === "package.json" || p.endsWith("/package.json"))));
  return { paths: new Set([...named, ...manifests]), packageManifests };
}

/** The run's surface of `files`, the plan placed where it really lies (`planPath`). */
async function surfaceIn(d: Deps, files: readonly string[]): Promise<Result<Surface, ExecFault>> {
  const plan = await planPath(d);
  return plan.map((path) => surfaceOf(d.contract, files, d.settings.pinGlobs, d.repo, path));
}

function treeAt(d: Deps, commit: string) {
  return d.git.tree(commit);
}

/**
 * The surface at `commit` as `unchanged` rows (authorAssumptions) and how many files it holds. A
 * file the assumptions format cannot name (a compatibility character, a backslash at the top) or
 * a tree the gate's reader refuses is the fault `surface-unpinnable`, naming the file and why.
 */
export function surfaceRows(d: Deps, commit: string): Promise<Result<SurfaceRows, ExecFault>> {
  // A commit id names content that never changes: the start's check and a stage based there share one read.
  let mine = authoredOnce.get(d);
  if (mine === undefined) authoredOnce.set(d, (mine = new Map()));
  let rows = mine.get(commit);
  if (rows === undefined) mine.set(commit, (rows = authorSurface(d, commit)));
  return rows;
}

type SurfaceRows = { files: number; text: string };
const authoredOnce = new WeakMap<Deps, Map<string, Promise<Result<SurfaceRows, ExecFault>>>>();

async function authorSurface(d: Deps, commit: string): Promise<Result<SurfaceRows, ExecFault>> {
  const files = await d.tracked(commit);
  if (files.isErr()) return err(files.error);
  const plan = await planPath(d);
  if (plan.isErr()) return err(plan.error);
  const paths = surfacePaths(d.contract, files.value, d.settings.pinGlobs, d.repo, plan.value);
  if (paths.length === 0) return ok({ files: 0, text: "# the pinned acceptance surface is empty: no file named by acceptance or matched by the pin globs\n" });
  const authored = await authorAssumptions({ tree: treeAt(d, commit), reads: paths });
  if (authored.isErr()) return err({ code: "surface-unpinnable", commit, message: describeFault(authored.error) });
  return ok({ files: paths.length, text: authored.value });
}

/** Pin the surface at `commit` (`surfaceRows`) into `file`; returns how many files. */
export async function pinSurface(d: Deps, commit: string, file: string): Promise<Result<number, ExecFault>> {
  const rows = await surfaceRows(d, commit);
  if (rows.isErr()) return err(rows.error);
  // The commit it was pinned at, for a later run to check what has changed since (`changedSinceOpened`).
  const written = await writeFile(d, file, `${rows.value.text}${PINNED_AT}${commit}\n`);
  return written.map(() => rows.value.files);
}

const PINNED_AT = "# pinned at ";
const PINNED_LINE = new RegExp(`^${PINNED_AT}([0-9a-f]{40}|[0-9a-f]{64})$`, "m");

/** The commit a pinned surface file names (`# pinned at <commit>`), null when it names none. */
function pinnedAt(text: string): string | null {
  return PINNED_LINE.exec(text)?.[1] ?? null;
}

/**
 * Of `stages`, those an earlier run opened (their surface pinned under freeze/ at a base) whose
 * surface at that base has been edited or deleted since by commits no run checked (a run killed
 * between an execute's commit and its check, then started afresh): each stage with why. An
 * execute that rewrote its own acceptance is never counted done, nor taken as the acceptance to
 * meet, because a crash came between. A pinned file an agent removed or forged only makes this
 * look at less; the durable runner replays the check itself.
 */
export async function changedSinceOpened(d: Deps, stages: readonly string[], head: string): Promise<Result<Record<string, string>, ExecFault>> {
  const out: Record<string, string> = {};
  for (const id of stages) {
    const text = await readText(d, inRepo(d, `${d.paths.freeze}/${id}-surface.tsv`));
    if (text.isErr()) return err(text.error);
    const base = text.value === null ? null : pinnedAt(text.value);
    if (base === null) continue;
    const why = await uncheckedSince(d, base, head, "a run opened it");
    if (why.isErr()) return err(why.error);
    if (why.value !== null) out[id] = why.value;
  }
  return ok(out);
}

/** Why the surface at `from` counts as changed by the commits up to `head` (`what` happened at `from`); null when none of them changed it. */
async function uncheckedSince(d: Deps, from: string, head: string, what: string): Promise<Result<string | null, ExecFault>> {
  if (from === head) return ok(null);
  const diverged = await executeDivergence(d, { from, to: head });
  if (diverged.isErr()) return err(diverged.error);
  if (diverged.value.length === 0) return ok(null);
  const files = `${diverged.value.length} file${diverged.value.length === 1 ? "" : "s"}: ${diverged.value.join(", ")}`;
  return ok(`its acceptance surface changed since ${what} at ${from.slice(0, 12)}, in commits no run checked (${files})`);
}

/**
 * Of `stages`, each with why when the acceptance surface at `since` (where the first of the runs
 * that have not ended started) was edited or deleted by the commits since, which no run checked
 * (a run killed between an execute's commit and its check): the surface is the contract's, so
 * every one of them. Empty when nothing on it changed.
 */
export async function changedSinceStarted(d: Deps, stages: readonly string[], since: string, head: string): Promise<Result<Record<string, string>, ExecFault>> {
  if (stages.length === 0) return ok({});
  const why = await uncheckedSince(d, since, head, "an unfinished run started");
  return why.map((reason) => (reason === null ? {} : Object.fromEntries(stages.map((id) => [id, reason]))));
}

// The checks below work the surface out again from git and the contract every time. The file
// pinned at a stage's base under freeze/ is the record for people, never read back: it sits in the
// working tree, where the agent that is being checked can write.

/**
 * Check a fix, from the HEAD before the fix call (`from`) to its result (`to`): every file on the
 * surface at either end that a commit of the range changed (added, edited, deleted; the agent's
 * own commits included), plus the workspace's contract.md when it no longer holds the run's
 * contract (it is written back).
 */
export async function surfaceDivergence(d: Deps, range: { from: string; to: string }): Promise<Result<string[], ExecFault>> {
  const changed = await changedSurface(d, range);
  if (changed.isErr()) return err(changed.error);
  const diverged = changed.value.map((p) => `${p}: on the acceptance surface, changed between ${range.from.slice(0, 12)} and ${range.to.slice(0, 12)}`);
  const contract = await readText(d, inRepo(d, d.paths.contract));
  if (contract.isErr()) return err(contract.error);
  if (contract.value !== d.contractText) {
    diverged.push(`${d.paths.contract}: the contract file was changed`);
    const restored = await writeFile(d, d.paths.contract, d.contractText);
    if (restored.isErr()) return err(restored.error);
  }
  return ok(diverged);
}

/**
 * What an execute changed of the surface at its stage's base (`range.from`) by its commit
 * (`range.to`): every such file it edited or deleted, but a package.json pinned only as what a
 * package manager reads, when no more than its dependencies changed and workspace packages were
 * added (`manifestEdit`). Files it added are not on that surface: they are the tests its stage
 * asks for, on the surface from its commit on.
 */
export async function executeDivergence(d: Deps, range: { from: string; to: string }): Promise<Result<string[], ExecFault>> {
  const files = await rangeFiles(d, range);
  if (files.isErr() || files.value === null) return files.map(() => []);
  const placed = await surfaceIn(d, files.value.before);
  if (placed.isErr()) return err(placed.error);
  const surface = placed.value;
  const kept = new Set(files.value.after);
  const out: string[] = [];
  for (const p of files.value.changed) {
    if (!surface.paths.has(p)) continue;
    if (!kept.has(p)) out.push(`${p}: deleted`);
    else if (!surface.packageManifests.has(p)) out.push(`${p}: edited`);
    else {
      const edit = await manifestEdit(d, range, p);
      if (edit.isErr()) return err(edit.error);
      if (edit.value !== null) out.push(`${p}: ${edit.value}`);
    }
  }
  return ok(out);
}

/** Files on the surface at `from` or at `to` that the range's commits changed (added, edited, deleted). */
async function changedSurface(d: Deps, range: { from: string; to: string }): Promise<Result<string[], ExecFault>> {
  const files = await rangeFiles(d, range);
  if (files.isErr() || files.value === null) return files.map(() => []);
  const surface = new Set<string>();
  for (const tracked of [files.value.before, files.value.after]) {
    const at = await surfaceIn(d, tracked);
    if (at.isErr()) return err(at.error);
    for (const p of at.value.paths) surface.add(p);
  }
  return ok(files.value.changed.filter((p) => surface.has(p)));
}

/** The paths a range of commits changed (`git diff`) and the files tracked at each end; null when it changed none. */
async function rangeFiles(
  d: Deps,
  range: { from: string; to: string },
): Promise<Result<{ changed: readonly string[]; before: readonly string[]; after: readonly string[] } | null, ExecFault>> {
  if (range.from === range.to) return ok(null);
  const stats = await d.git.diffStats(range.from, range.to);
  if (stats.isErr()) return err(stats.error);
  if (stats.value.paths.length === 0) return ok(null);
  const before = await d.tracked(range.from);
  if (before.isErr()) return err(before.error);
  const after = await d.tracked(range.to);
  if (after.isErr()) return err(after.error);
  return ok({ changed: stats.value.paths, before: before.value, after: after.value });
}

/** Check the plan's assumptions file against a commit: the diverged rows (empty: the plan still holds). */
export async function staleRows(d: Deps, assumptions: string, commit: string): Promise<Result<string[], ExecFault>> {
  const path = assumptions.startsWith("/") ? assumptions : inRepo(d, assumptions);
  const bytes = await readBytes(d, path);
  if (bytes.isErr()) return err(bytes.error);
  if (bytes.value === null) return err({ code: "assumptions-fault", path, message: "the file does not exist" });
  const rows = parseAssumptions(bytes.value);
  if (rows.isErr()) return err({ code: "assumptions-fault", path, message: describeFault(rows.error) });
  const report = await checkTree({ tree: treeAt(d, commit), assumptions: rows.value });
  if (report.isErr()) return err({ code: "assumptions-fault", path, message: describeFault(report.error) });
  return ok(report.value.rows.filter((r) => r.status === "diverge").map((r) => `line ${r.line}: ${r.kind} ${r.path}: ${r.detail}`));
}

/**
 * Before a fix is committed: the working tree's changes (untracked files included) that are on
 * the surface at `head`, the HEAD before the fix, or would be once committed (a new file the pin
 * globs match). Such a fix is set aside (kept in a stash, never committed), so no kill can leave
 * it on the branch.
 */
export async function touchedSurface(d: Deps, head: string): Promise<Result<string[], ExecFault>> {
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  if (dirty.value.length === 0) return ok([]);
  const files = await d.tracked(head);
  if (files.isErr()) return err(files.error);
  const surface = await surfaceIn(d, [...new Set([...files.value, ...dirty.value])]);
  if (surface.isErr()) return err(surface.error);
  const paths = surface.value.paths;
  return ok(dirty.value.filter((p) => paths.has(p)).map((p) => `${p}: changed by the fix before it was committed`));
}
