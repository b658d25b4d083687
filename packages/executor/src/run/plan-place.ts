// Where the plan file lies in the repository: the path the stale-branch check reads at a commit
// and the acceptance surface pins.
import { decodeStrictUtf8, thrownCode, isAbsolutePath } from "@decay/portable";
import { err, ok, type Result } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";
import type { Deps } from "./deps.js";
import { inRepository } from "./paths.js";

type R<T> = Result<T, ExecFault>;

/** A path from the repository's top, or null when `rel` leaves it or names the top itself. */
function placed(rel: string): string | null {
  const path = inRepository("", rel);
  return path === "" ? null : path;
}

/** What every path below directory `dir` starts with. */
const below = (dir: string) => (dir.endsWith("/") ? dir : `${dir}/`);

/**
 * The plan's path from the repository's top, as the contract names it; null when it lies outside.
 * An absolute path is placed by its spelling when it starts with the repository's; spelled another
 * way (through a link: `/var` for `/private/var`), by where its directory and the repository really
 * are, when the fs can say (`realpath`); a plan whose directory is not there lies outside. A plan
 * in the repository keeps its own name (a plan that is a link is followed in each commit, as git
 * stores it); one outside that is a link to a file of the repository is placed as that file.
 * Placed once a run.
 */
export function planPath(d: Pick<Deps, "contract" | "repo" | "fs">): Promise<R<string | null>> {
  let placing = placedOnce.get(d);
  if (placing === undefined) placedOnce.set(d, (placing = place(d)));
  return placing;
}

const placedOnce = new WeakMap<object, Promise<R<string | null>>>();

/**
 * The plan's path from the top by its spelling alone: relative, or absolute under `repo` as
 * spelled; `undefined` for an absolute path spelled otherwise, which only the filesystem can place.
 */
function placeBySpelling(plan: string, repo: string): string | null | undefined {
  if (!isAbsolutePath(plan)) return placed(plan);
  return plan.startsWith(below(repo)) ? placed(plan.slice(below(repo).length)) : undefined;
}

async function place(d: Pick<Deps, "contract" | "repo" | "fs">): Promise<R<string | null>> {
  const plan = d.contract.plan;
  const spelled = placeBySpelling(plan, d.repo);
  if (spelled !== undefined) return ok(spelled);
  const realpath = d.fs.promises.realpath;
  if (realpath === undefined) return ok(null);
  const real = async (path: string): Promise<R<string | null>> => {
    try {
      const got = await realpath(path);
      if (typeof got === "string") return ok(got);
      return decodeStrictUtf8(got, { bom: "keep" }).mapErr((): ExecFault => ({ code: "workspace-io", path, reason: "its real path is not UTF-8" }));
    } catch (e) {
      // A directory that is not there holds no plan file of the repository's.
      const code = thrownCode(e);
      return code === "ENOENT" || code === "ENOTDIR" ? ok(null) : err({ code: "workspace-io", path, reason: reasonOf(e) });
    }
  };
  const slash = plan.lastIndexOf("/");
  const [top, dir] = await Promise.all([real(d.repo), real(plan.slice(0, slash) || "/")]);
  if (top.isErr()) return err(top.error);
  if (dir.isErr()) return err(dir.error);
  if (top.value === null) return err({ code: "workspace-io", path: d.repo, reason: "the repository's directory is not there" });
  if (dir.value === null) return ok(null);
  const under = below(top.value);
  const inside = (path: string) => (path.startsWith(under) ? placed(path.slice(under.length)) : null);
  const here = inside(`${below(dir.value)}${plan.slice(slash + 1)}`);
  if (here !== null) return ok(here);
  // A plan outside that is a link to a file of the repository: that file is the plan.
  const target = await real(plan);
  return target.map((path) => (path === null ? null : inside(path)));
}
