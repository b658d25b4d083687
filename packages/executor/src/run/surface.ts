import { authorAssumptions, checkTree, describeFault, parseAssumptions } from "@decay/assumptions";
import type { Contract } from "@decay/contract";
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, inRepo, readBytes, readText, writeFile } from "./deps.js";
import { matchGlobs } from "./glob.js";

/** Words of a command line that could name a file: split on blanks and shell operators, quotes dropped, `--opt=value` split. */
function words(command: string): string[] {
  return command
    .split(/[\s;|&()<>]+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ""))
    .flatMap((w) => (w.includes("=") ? [w, w.slice(w.indexOf("=") + 1)] : [w]))
    .map((w) => w.replace(/^\.\//, "").replace(/\/+$/, ""))
    .filter((w) => w !== "");
}

/**
 * The acceptance surface at a commit: every tracked file an acceptance command of the contract
 * names (a directory named pins every file under it), the plan file, and every file the globs match.
 */
export function surfacePaths(contract: Contract, files: readonly string[], globs: readonly string[]): string[] {
  const tracked = new Set(files);
  const named = new Set<string>();
  for (const row of contract.stages.flatMap((s) => s.acceptance)) {
    for (const w of words(row.run)) {
      if (tracked.has(w)) named.add(w);
      else for (const f of files) if (f.startsWith(`${w}/`)) named.add(f);
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

/**
 * Check a pinned surface at `commit`: the rows that diverged (a fix touched acceptance or what it
 * exercises), plus the workspace's contract.md when it no longer holds the run's contract (it is
 * written back).
 */
export async function surfaceDivergence(d: Deps, commit: string, file: string): Promise<Result<string[], ExecFault>> {
  const bytes = await readBytes(d, inRepo(d, file));
  if (bytes.isErr()) return err(bytes.error);
  if (bytes.value === null) return err({ code: "workspace-io", path: inRepo(d, file), reason: "the pinned surface is missing" });
  const diverged: string[] = [];
  const rows = parseAssumptions(bytes.value);
  if (rows.isErr()) return err({ code: "assumptions-fault", path: file, message: describeFault(rows.error) });
  if (rows.value.length > 0) {
    const report = await checkTree({ tree: treeAt(d, commit), assumptions: rows.value });
    if (report.isErr()) return err({ code: "assumptions-fault", path: file, message: describeFault(report.error) });
    for (const r of report.value.rows) if (r.status === "diverge") diverged.push(`${r.kind} ${r.path}: ${r.detail}`);
  }
  const contract = await readText(d, inRepo(d, d.paths.contract));
  if (contract.isErr()) return err(contract.error);
  if (contract.value !== d.contractText) {
    diverged.push(`${d.paths.contract}: the contract file was changed`);
    const restored = await writeFile(d, d.paths.contract, d.contractText);
    if (restored.isErr()) return err(restored.error);
  }
  return ok(diverged);
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
  const bytes = await readBytes(d, inRepo(d, file));
  if (bytes.isErr()) return err(bytes.error);
  if (bytes.value === null) return err({ code: "workspace-io", path: inRepo(d, file), reason: "the pinned surface is missing" });
  const rows = parseAssumptions(bytes.value);
  if (rows.isErr()) return err({ code: "assumptions-fault", path: file, message: describeFault(rows.error) });
  const pinned = new Set(rows.value.map((r) => r.path));
  const dirty = await d.git.dirty();
  if (dirty.isErr()) return err(dirty.error);
  return ok(dirty.value.filter((p) => pinned.has(p)).map((p) => `unchanged ${p}: changed by the fix before it was committed`));
}
