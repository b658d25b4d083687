// What an execute may change of a package.json the acceptance surface holds only as what a package
// manager reads (`npm test` runs its `scripts.test`): its dependencies, and the workspace packages
// it lists, added but never dropped or excluded. Anything else it holds can change what runs.
import { err, ok, type Result } from "neverthrow";
import type { ExecFault } from "../fault.js";
import { type Deps, utf8Text } from "./deps.js";

/** The fields that name dependencies: a stage may add or change them. */
const DEPENDENCY_FIELDS: ReadonlySet<string> = new Set(["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"]);

/**
 * Why the edit of the package.json at `path` between two commits counts against the surface, or
 * null when it changed no more than its dependencies and added workspace packages. A file that is
 * no JSON object at either end (a link, not UTF-8, not JSON, over `maxReadBytes`) counts: nothing
 * shows what it changed.
 */
export async function manifestEdit(d: Deps, range: { from: string; to: string }, path: string): Promise<Result<string | null, ExecFault>> {
  const before = await packageAt(d, range.from, path);
  if (before.isErr()) return err(before.error);
  if (typeof before.value === "string") return ok(before.value);
  const after = await packageAt(d, range.to, path);
  if (after.isErr()) return err(after.error);
  if (typeof after.value === "string") return ok(after.value);
  return ok(packageChange(before.value, after.value));
}

type Json = Record<string, unknown>;

/** The package.json at `commit` as a JSON object, or why it is none. */
async function packageAt(d: Deps, commit: string, path: string): Promise<Result<Json | string, ExecFault>> {
  const at = commit.slice(0, 12);
  const read = await d.git.tree(commit).read(path, d.settings.maxReadBytes);
  if (read.isErr()) {
    if (read.error.code === "tree-io") return err({ code: "git-failed", op: `read ${path} at ${commit}`, reason: read.error.message });
    if (read.error.code === "tree-too-large") return ok(`edited (larger than maxReadBytes at ${at}, so not compared)`);
    return ok(`edited (not a regular file at ${at})`);
  }
  const text = utf8Text(path, read.value);
  try {
    const json: unknown = text.isOk() ? JSON.parse(text.value) : null;
    if (typeof json === "object" && json !== null && !Array.isArray(json)) return ok(json as Json);
  } catch {
    // Not JSON: said below, as text that is not UTF-8 is.
  }
  return ok(`edited (no JSON object at ${at})`);
}

/** What changed of a package.json besides its dependencies and added workspace packages; null when nothing did. */
function packageChange(before: Json, after: Json): string | null {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = keys.filter((k) => !DEPENDENCY_FIELDS.has(k) && k !== "workspaces" && !sameJson(before[k], after[k]));
  if (changed.length > 0) return `its ${changed.join(", ")} changed (what a package manager runs or reads besides dependencies)`;
  return workspaceChange(before.workspaces, after.workspaces);
}

/** `workspaces` may only gain packages: a dropped entry or a new exclusion (`!glob`) leaves packages' tests out. */
function workspaceChange(before: unknown, after: unknown): string | null {
  if (sameJson(before, after)) return null;
  const was = globsOf(before);
  const is = globsOf(after);
  if (was === null || is === null || !sameJson(besidesPackages(before), besidesPackages(after))) return "its workspaces changed";
  const dropped = was.filter((g) => !is.includes(g));
  if (dropped.length > 0) return `its workspaces dropped ${dropped.join(", ")}`;
  const excluded = is.filter((g) => g.startsWith("!") && !was.includes(g));
  return excluded.length > 0 ? `its workspaces exclude ${excluded.join(", ")}` : null;
}

/** The package globs of a `workspaces` field (an array, or an object's `packages`); null for any other shape. */
function globsOf(w: unknown): readonly string[] | null {
  const list = w === undefined ? [] : Array.isArray(w) ? w : typeof w === "object" && w !== null ? ((w as Json).packages ?? []) : null;
  return Array.isArray(list) && list.every((g) => typeof g === "string") ? (list as string[]) : null;
}

/** A `workspaces` object without its `packages` (yarn's `nohoist` and the like), compared whole. */
function besidesPackages(w: unknown): unknown {
  if (typeof w !== "object" || w === null || Array.isArray(w)) return undefined;
  const { packages: _, ...rest } = w as Json;
  return rest;
}

/** Deep equality of parsed JSON values, key order aside; iterative, so no nesting depth overflows it. */
function sameJson(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
    const xs = Object.keys(x);
    if (xs.length !== Object.keys(y).length) return false;
    for (const k of xs) {
      if (!Object.hasOwn(y, k)) return false;
      pending.push([(x as Json)[k], (y as Json)[k]]);
    }
  }
  return true;
}
