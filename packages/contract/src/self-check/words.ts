// How a command's words are named: its program, and the positional words after its options.
import { toolPath } from "./npm-commands.js";

/** The program name of a command word: `/usr/bin/git` is `git`. */
export const programName = (word: string): string => word.slice(word.lastIndexOf("/") + 1);

/** `table[key]` when `key` is the table's own: a program named `constructor` or `toString` is no entry. */
export const ownEntry = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** Options that take a separate value, per tool, so the subcommand can be found after them. */
const VALUE_OPTIONS: Record<string, string[]> = {
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"],
  aws: ["--region", "--profile", "--endpoint-url", "--output", "--query", "--ca-bundle", "--color", "--cli-read-timeout", "--cli-connect-timeout"],
  cargo: ["--manifest-path", "--registry", "--index", "--token", "-p", "--package", "-Z", "--config", "--target-dir"],
  twine: ["-r", "--repository", "--repository-url", "-u", "--username", "-p", "--password", "-c", "--comment", "--config-file"],
  poetry: ["-r", "--repository", "-u", "--username", "-p", "--password", "-C", "--directory", "-P", "--project"],
  gem: ["--key", "--host", "--otp", "-k"],
  npm: ["--prefix", "-w", "--workspace", "--tag", "--access", "--otp", "--registry", "-C"],
  pnpm: ["--filter", "-F", "-C", "--dir", "--tag", "--access", "--otp", "--registry"],
  yarn: ["--cwd", "--tag", "--access", "--otp", "--registry", "--include", "--exclude", "--from", "-j", "--jobs", "--since"],
  gh: [
    "-R",
    "--repo",
    "-X",
    "--method",
    "-f",
    "-F",
    "--field",
    "--raw-field",
    "--input",
    "-H",
    "--header",
    "-t",
    "--title",
    "-b",
    "--body",
    "-B",
    "--base",
    "--head",
    "-l",
    "--label",
    "-a",
    "--assignee",
    "-m",
    "--milestone",
    "-q",
    "--jq",
    "--template",
    "--notes",
    "-n",
  ],
  docker: ["-H", "--host", "--context", "--config", "-l", "--log-level", "-f", "--file", "-t", "--tag", "--platform"],
  kubectl: [
    "-n",
    "--namespace",
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-f",
    "--filename",
    "-l",
    "--selector",
    "-o",
    "--output",
    "-c",
    "--container",
    "-s",
    "--server",
  ],
  helm: ["-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--version"],
};
VALUE_OPTIONS.podman = VALUE_OPTIONS.docker ?? [];
VALUE_OPTIONS.oc = VALUE_OPTIONS.kubectl ?? [];
VALUE_OPTIONS.bun = VALUE_OPTIONS.npm ?? [];

/** Drop yarn's workspace scope (`workspace NAME`, `workspaces foreach`): what follows is the command it runs. */
function unscoped(tool: string, pos: string[]): string[] {
  if (tool !== "yarn") return pos;
  if (pos[0] === "workspace") return pos.slice(2);
  return pos[0] === "workspaces" && pos[1] === "foreach" ? pos.slice(2) : pos;
}

/** The positional words of a command (options and their values skipped, a yarn workspace scope dropped), after the program. */
export function positionals(argv: string[]): string[] {
  const tool = programName(argv[0] ?? "");
  return unscoped(tool, optionless(tool, argv));
}

/** The words after the program that are not options or option values. */
function optionless(tool: string, argv: string[]): string[] {
  const withValue = new Set(ownEntry(VALUE_OPTIONS, tool) ?? []);
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    if (w === "--") return [...out, ...argv.slice(i + 1)];
    if (w.startsWith("-") && w.length > 1) {
      if (withValue.has(w)) i++;
    } else out.push(w);
  }
  return out;
}

/**
 * A command's positional words as its tool reads them: for npm, its command word resolved as npm
 * resolves it (`npm pub` is `npm publish`) and the subcommand of `dist-tag`/`owner` by its
 * canonical name; for pnpm, `dist-tags` is `dist-tag`. Any other tool's words are its positionals.
 */
export function commandPath(argv: string[]): string[] {
  return toolPath(programName(argv[0] ?? ""), positionals(argv));
}
