// @decay/assumptions/git: the git-commit TreeReader, behind a subpath so the package root never
// pulls isomorphic-git. Named exports only.
export { gitTree } from "../adapters/git.js";
export type { GitTreeOptions } from "../adapters/git.js";
export type { GitFs } from "../adapters/git-repo.js";
export type { Inflate, Sha1Hex } from "../adapters/git-natives.js";
