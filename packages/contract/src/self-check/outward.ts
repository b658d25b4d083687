import { programName } from "./commands.js";

/** Options that take a separate value, per tool, so the subcommand can be found after them. */
const VALUE_OPTIONS: Record<string, string[]> = {
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"],
  npm: ["--prefix", "-w", "--workspace", "--tag", "--access", "--otp", "--registry", "-C"],
  pnpm: ["--filter", "-F", "-C", "--dir", "--tag", "--access", "--otp", "--registry"],
  yarn: ["--cwd", "--tag", "--access", "--otp", "--registry", "--include", "--exclude", "--from", "-j", "--jobs", "--since"],
  gh: ["-R", "--repo", "-X", "--method", "-f", "-F", "--field", "--raw-field", "--input", "-H", "--header", "-t", "--title", "-b", "--body", "-B", "--base", "--head", "-l", "--label", "-a", "--assignee", "-m", "--milestone", "-q", "--jq", "--template", "--notes", "-n"],
  docker: ["-H", "--host", "--context", "--config", "-l", "--log-level", "-f", "--file", "-t", "--tag", "--platform"],
  kubectl: ["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-f", "--filename", "-l", "--selector", "-o", "--output", "-c", "--container", "-s", "--server"],
  helm: ["-n", "--namespace", "--kube-context", "--kubeconfig", "-f", "--values", "--set", "--version"],
};
VALUE_OPTIONS.podman = VALUE_OPTIONS.docker ?? [];
VALUE_OPTIONS.oc = VALUE_OPTIONS.kubectl ?? [];
VALUE_OPTIONS.bun = VALUE_OPTIONS.npm ?? [];

/** The closed list: tool → subcommand paths (space-joined positionals) that write outward. */
export const OUTWARD: Record<string, string[]> = {
  git: ["push", "send-email", "svn dcommit"],
  npm: ["publish", "unpublish", "deprecate", "dist-tag add", "dist-tag rm", "owner add", "owner rm"],
  pnpm: ["publish", "unpublish", "deprecate", "dist-tag add", "dist-tag rm"],
  yarn: ["publish", "npm publish", "unpublish", "npm tag add", "npm tag remove"],
  bun: ["publish"],
  gh: [
    "pr create", "pr merge", "pr close", "pr reopen", "pr comment", "pr edit", "pr review", "pr ready",
    "issue create", "issue comment", "issue close", "issue reopen", "issue edit", "issue delete",
    "release create", "release upload", "release edit", "release delete",
    "repo create", "repo delete", "repo edit", "repo fork", "repo rename", "repo archive",
    "gist create", "gist edit", "gist delete", "workflow run", "run rerun", "run cancel",
    "secret set", "secret delete", "variable set", "variable delete", "label create", "label edit", "label delete",
  ],
  docker: ["push", "image push", "manifest push", "compose push"],
  podman: ["push", "image push", "manifest push"],
  kubectl: ["apply", "create", "delete", "replace", "patch", "edit", "scale", "set", "label", "annotate", "rollout", "drain", "cordon", "uncordon", "taint", "expose", "run", "autoscale"],
  oc: ["apply", "create", "delete", "replace", "patch", "edit", "scale", "set", "label", "annotate", "rollout"],
  helm: ["install", "upgrade", "uninstall", "delete", "rollback", "push"],
  terraform: ["apply", "destroy", "import", "taint", "untaint", "force-unlock", "state rm", "state mv", "state push"],
  tofu: ["apply", "destroy", "import", "taint", "untaint", "force-unlock", "state rm", "state mv", "state push"],
};

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
  const withValue = new Set(VALUE_OPTIONS[tool] ?? []);
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

const CURL_VALUE_LETTERS = "dDeEFHKoTuAbcrxXwmyYzCPQtU";
const CURL_WRITE_LONG = /^--(?:data(?:-raw|-binary|-urlencode|-ascii)?|form(?:-string)?|upload-file|json|post30[123])(?:=|$)/;

/** The method a `-X`/`--request` asks for, and whether data or an upload is sent. */
function curlWrites(argv: string[]): boolean {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] ?? "";
    const long = /^--request(?:=(.*))?$/.exec(w);
    if (long) {
      // A reading method does not end the scan: `--request GET --data x` still sends data.
      if (!/^(?:GET|HEAD|OPTIONS)$/i.test(long[1] ?? argv[++i] ?? "")) return true;
      continue;
    }
    if (CURL_WRITE_LONG.test(w)) return true;
    if (!/^-[^-]/.test(w)) continue;
    for (let k = 1; k < w.length; k++) {
      const letter = w[k] ?? "";
      if (!CURL_VALUE_LETTERS.includes(letter)) continue;
      if ("dFT".includes(letter)) return true;
      const value = w.length > k + 1 ? w.slice(k + 1) : (argv[++i] ?? "");
      if (letter === "X" && !/^(?:GET|HEAD|OPTIONS)$/i.test(value)) return true;
      break;
    }
  }
  return false;
}

function wgetWrites(argv: string[]): boolean {
  return argv.some((w, i) => {
    if (/^--(?:post-data|post-file|body-data|body-file)(?:=|$)/.test(w)) return true;
    const method = /^--method(?:=(.*))?$/.exec(w);
    return method !== null && !/^(?:GET|HEAD|OPTIONS)$/i.test(method[1] ?? argv[i + 1] ?? "");
  });
}

function ghApiWrites(argv: string[]): boolean {
  return argv.some((w, i) => {
    if (/^(?:-f|-F|--field|--raw-field|--input)(?:=|$)/.test(w) || /^-[fF]./.test(w)) return true;
    const method = /^(?:-X|--method)(?:=?(.+))?$/.exec(w);
    return method !== null && !/^(?:GET|HEAD)$/i.test(method[1] ?? argv[i + 1] ?? "");
  });
}

/** What an unwrapped command writes outward, as "tool subcommand"; null when it only reads. */
export function outwardWrite(argv: string[]): string | null {
  const tool = programName(argv[0] ?? "");
  if (tool === "curl") return curlWrites(argv) ? "curl with a writing method or data" : null;
  if (tool === "wget") return wgetWrites(argv) ? "wget with a writing method or data" : null;
  const pos = positionals(argv);
  if (tool === "gh" && pos[0] === "api") return ghApiWrites(argv) ? "gh api with a writing method or fields" : null;
  if ((tool === "docker" || tool === "podman") && pos[0] === "buildx" && argv.includes("--push")) {
    return `${tool} buildx --push`;
  }
  const path = pos.join(" ");
  const hit = (OUTWARD[tool] ?? []).find((sub) => path === sub || path.startsWith(`${sub} `));
  return hit ? `${tool} ${hit}` : null;
}
