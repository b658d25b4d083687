import { type Assumption, authorAssumptions, checkTree, describeFault, parseAssumptions, type ReportRow } from "@decay/assumptions";
import type { Contract } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, inRepo, readBytes, readText, writeFile } from "./deps.js";
import { matchGlobs } from "./glob.js";
import { manifestsOf } from "./manifests.js";

/** Words of a command line that could name a file: split on blanks and shell operators, quotes dropped, `--opt=value` split. */
function words(command: string): string[] {
  return command
    .split(/[\s;|&()<>]+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ""))
    .flatMap((w) => (w.includes("=") ? [w, w.slice(w.indexOf("=") + 1)] : [w]))
    .map((w) => w.replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((w) => w !== "");
}

/** The workspace manifests a workspace-wide package-manager run reads besides every package.json. */
const WORKSPACE_FILES = ["pnpm-workspace.yaml", "lerna.json", "nx.json", "turbo.json"];

/**
 * The acceptance surface at a commit: every tracked file an acceptance command of the contract
 * names (a directory named pins every file under it), the manifests that decide what a command
 * runs (`manifestsOf`: package.json for `npm test`, the Makefile for `make`), the plan file, and
 * every file the globs match.
 */
export function surfacePaths(contract: Contract, files: readonly string[], globs: readonly string[]): string[] {
  const tracked = new Set(files);
  const named = new Set<string>();
  for (const row of contract.stages.flatMap((s) => s.acceptance)) {
    for (const w of words(row.run)) {
      if (tracked.has(w)) named.add(w);
      else for (const f of files) if (f.startsWith(`${w}/`)) named.add(f);
    }
    const manifests = manifestsOf(row.run);
    for (const p of manifests.paths) if (tracked.has(p)) named.add(p);
    if (manifests.everyPackage) {
      for (const f of files) if (f === "package.json" || f.endsWith("/package.json") || WORKSPACE_FILES.includes(f)) named.add(f);
    }
  }
  if (tracked.has(contract.plan)) named.add(contract.plan);
  for (const f of matchGlobs(files, globs)) named.add(f);
  return [...named].sort();
}

function treeAt(d: Deps, commit: string) {
  return d.git.tree(commit);
}

/** Pin the surface at `commit` as `unchanged` rows (authorAssumptions) into `file`; returns how many files. */
export async function pinSurface(d: Deps, commit: string, file: string): Promise<Result<number, ExecFault>> {
  const files = await d.git.listFiles(commit);
  if (files.isErr()) return err(files.error);
  const paths = surfacePaths(d.contract, files.value, d.settings.pinGlobs);
  let text = "# the pinned acceptance surface is empty: no file named by acceptance or matched by the pin globs\n";
  if (paths.length > 0) {
    const authored = await authorAssumptions({ tree: treeAt(d, commit), reads: paths });
    if (authored.isErr()) return err({ code: "assumptions-fault", path: file, message: describeFault(authored.error) });
    text = authored.value;
  }
  const written = await writeFile(d, file, text);
  return written.map(() => paths.length);
}

/** The rows of the pinned surface in `file` (written by `pinSurface`). */
async function pinnedRows(d: Deps, file: string): Promise<Result<Assumption[], ExecFault>> {
  const bytes = await readBytes(d, inRepo(d, file));
  if (bytes.isErr()) return err(bytes.error);
  if (bytes.value === null) return err({ code: "workspace-io", path: inRepo(d, file), reason: "the pinned surface is missing" });
  const rows = parseAssumptions(bytes.value);
  return rows.mapErr((e): ExecFault => ({ code: "assumptions-fault", path: file, message: describeFault(e) }));
}

/** The rows of the pinned surface in `file` that diverge at `commit`. */
async function divergedAt(d: Deps, file: string, commit: string): Promise<Result<ReportRow[], ExecFault>> {
  const rows = await pinnedRows(d, file);
  if (rows.isErr()) return err(rows.error);
  if (rows.value.length === 0) return ok([]);
  const report = await checkTree({ tree: treeAt(d, commit), assumptions: rows.value });
  if (report.isErr()) return err({ code: "assumptions-fault", path: file, message: describeFault(report.error) });
  return ok(report.value.rows.filter((r) => r.status === "diverge"));
}

const shown = (r: ReportRow) => `${r.kind} ${r.path}: ${r.detail}`;

/**
 * Check a fix against the surface, from the HEAD before the fix call (`from`) to its result (`to`):
 * the pinned rows that diverged at `to`, every file on the surface at either end that a commit of
 * the range changed (the agent's own commits included), plus the workspace's contract.md when it no
 * longer holds the run's contract (it is written back).
 */
export async function surfaceDivergence(d: Deps, range: { from: string; to: string }, file: string): Promise<Result<string[], ExecFault>> {
  const pinned = await divergedAt(d, file, range.to);
  if (pinned.isErr()) return err(pinned.error);
  const diverged = pinned.value.map(shown);
  const changed = await changedSurface(d, range);
  if (changed.isErr()) return err(changed.error);
  const named = new Set(pinned.value.map((r) => r.path));
  for (const p of changed.value)
    if (!named.has(p)) diverged.push(`${p}: on the acceptance surface, changed between ${range.from.slice(0, 12)} and ${range.to.slice(0, 12)}`);
  const contract = await readText(d, inRepo(d, d.paths.contract));
  if (contract.isErr()) return err(contract.error);
  if (contract.value !== d.contractText) {
    diverged.push(`${d.paths.contract}: the contract file was changed`);
    const restored = await writeFile(d, d.paths.contract, d.contractText);
    if (restored.isErr()) return err(restored.error);
  }
  return ok(diverged);
}

// Manifests an execute may edit: a stage may add a dependency or a workspace package. What a
// package.json runs, its `scripts`, stays pinned.
const EDITABLE_MANIFESTS = new Set(["package.json", ...WORKSPACE_FILES]);

/** A package.json's `scripts` at `commit`, as JSON; its whole text when it is no JSON object; null when it is not there. */
async function scriptsAt(d: Deps, commit: string, path: string): Promise<Result<string | null, ExecFault>> {
  const read = await treeAt(d, commit).read(path, d.settings.maxReadBytes);
  if (read.isErr())
    return read.error.code === "tree-not-found" ? ok(null) : err({ code: "git-failed", op: `read ${path} at ${commit}`, reason: read.error.message });
  const text = new TextDecoder().decode(read.value);
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === "object" && json !== null && !Array.isArray(json)) return ok(JSON.stringify((json as { scripts?: unknown }).scripts ?? null));
  } catch {
    // Not JSON: compared as text below, so any change counts.
  }
  return ok(text);
}

/**
 * What an execute changed of the surface pinned at its stage's base (`file`), from the base
 * (`range.from`) to the execute's commit (`range.to`): every pinned file it edited or deleted, but a
 * manifest it may edit (a package.json whose `scripts` stayed as they were, a workspace file). Files
 * it added are not on that surface: they are the tests its stage asks for, pinned at its commit.
 */
export async function executeDivergence(d: Deps, range: { from: string; to: string }, file: string): Promise<Result<string[], ExecFault>> {
  const pinned = await divergedAt(d, file, range.to);
  if (pinned.isErr()) return err(pinned.error);
  const out: string[] = [];
  for (const r of pinned.value) {
    const name = r.path.slice(r.path.lastIndexOf("/") + 1);
    if (!EDITABLE_MANIFESTS.has(name)) out.push(shown(r));
    else if (name === "package.json") {
      const before = await scriptsAt(d, range.from, r.path);
      if (before.isErr()) return err(before.error);
      const after = await scriptsAt(d, range.to, r.path);
      if (after.isErr()) return err(after.error);
      if (before.value !== after.value) out.push(`${r.path}: its scripts changed (what a package manager runs)`);
    }
  }
  return ok(out);
}

/** Files on the surface at `from` or at `to` that the range's commits changed (added, edited, deleted). */
async function changedSurface(d: Deps, range: { from: string; to: string }): Promise<Result<string[], ExecFault>> {
  if (range.from === range.to) return ok([]);
  const stats = await d.git.diffStats(range.from, range.to);
  if (stats.isErr()) return err(stats.error);
  if (stats.value.paths.length === 0) return ok([]);
  const surface = new Set<string>();
  for (const commit of [range.from, range.to]) {
    const files = await d.git.listFiles(commit);
    if (files.isErr()) return err(files.error);
    for (const p of surfacePaths(d.contract, files.value, d.settings.pinGlobs)) surface.add(p);
  }
  return ok(stats.value.paths.filter((p) => surface.has(p)));
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
 * Before a fix is committed: the pinned files it changed in the working tree. Such a fix is set
 * aside (kept in a stash, never committed), so no kill can leave it on the branch.
 */
export async function touchedSurface(d: Deps, file: string): Promise<Result<string[], ExecFault>> {
  const rows = await pinnedRows(d, file);
  if (rows.isErr()) return err(rows.error);
  const pinned = new Set(rows.value.map((r) => r.path));
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  return ok(dirty.value.filter((p) => pinned.has(p)).map((p) => `unchanged ${p}: changed by the fix before it was committed`));
}
