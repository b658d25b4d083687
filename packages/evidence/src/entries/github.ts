// @decay/evidence/github: the GitHub REST transport (a subpath, so the root stays forge-free).
export type { GithubTransportOptions } from "../transport/github-config.js";
export { githubTransport } from "../transport/github.js";
