import { commandPath, ownEntry, programName } from "./words.js";

/**
 * The registry writes npm and pnpm both run (pnpm 11 and 12 run them itself, no longer passing them
 * to npm). `access list|get`, `token list` (and `token` alone), `team ls`, `owner ls`, `dist-tag
 * ls`, `stage list|view|download`, `stars` and `whoami` only read. Logging in makes a token on the
 * registry, and logging out revokes it.
 */
const REGISTRY_WRITES = [
  "publish",
  "unpublish",
  "deprecate",
  "undeprecate",
  "dist-tag add",
  "dist-tag rm",
  "owner add",
  "owner rm",
  "access grant",
  "access revoke",
  "access set",
  "token create",
  "token revoke",
  "team create",
  "team destroy",
  "team add",
  "team rm",
  "star",
  "unstar",
  "stage publish",
  "stage approve",
  "stage reject",
  "login",
  "logout",
];

/**
 * The closed list: tool → subcommand paths (space-joined positionals, each by its canonical name:
 * `commandPath` resolves npm's abbreviations and aliases, and pnpm's) that write outward.
 */
export const OUTWARD: Record<string, string[]> = {
  git: ["push", "send-email", "svn dcommit", "send-pack", "http-push", "subtree push", "lfs push", "p4 submit"],
  cargo: ["publish", "yank"],
  gem: ["push", "yank"],
  twine: ["upload", "register"],
  poetry: ["publish"],
  npm: [
    ...REGISTRY_WRITES,
    // npm 8 and older: in npm 11 a usage error, so naming them costs nothing.
    "access public",
    "access restricted",
    "access 2fa-required",
    "access 2fa-not-required",
    // `org ls`, `profile get` and `trust list` only read; `adduser` is npm's own command (pnpm's is `login`).
    "org set",
    "org rm",
    "profile set",
    "profile enable-2fa",
    "profile disable-2fa",
    "trust github",
    "trust gitlab",
    "trust circleci",
    "trust revoke",
    "adduser",
  ],
  // pnpm.io documents `profile` as writing the registry profile (pnpm 12.4.2 says "not implemented");
  // pnpm has no `org` or `trust` command (it runs a script or binary of that name).
  pnpm: [...REGISTRY_WRITES, "profile set", "profile enable-2fa", "profile disable-2fa"],
  // Berry's `npm login` makes a token on the registry (its `npm logout` only edits local config);
  // Classic's `owner`, `tag` and `team` write the registry (`list`/`ls` only read).
  yarn: [
    "publish",
    "npm publish",
    "unpublish",
    "npm tag add",
    "npm tag remove",
    "npm login",
    ...["owner", "tag"].flatMap((c) => [`${c} add`, `${c} rm`, `${c} remove`]),
    ...["create", "destroy", "add", "rm", "remove"].map((sub) => `team ${sub}`),
  ],
  bun: ["publish"],
  gh: [
    "pr create",
    "pr merge",
    "pr close",
    "pr reopen",
    "pr comment",
    "pr edit",
    "pr review",
    "pr ready",
    "issue create",
    "issue comment",
    "issue close",
    "issue reopen",
    "issue edit",
    "issue delete",
    "release create",
    "release upload",
    "release edit",
    "release delete",
    "repo create",
    "repo delete",
    "repo edit",
    "repo fork",
    "repo rename",
    "repo archive",
    "repo sync",
    "gist create",
    "gist edit",
    "gist delete",
    "workflow run",
    "run rerun",
    "run cancel",
    "secret set",
    "secret delete",
    "variable set",
    "variable delete",
    "label create",
    "label edit",
    "label delete",
  ],
  docker: ["push", "image push", "manifest push", "compose push"],
  podman: ["push", "image push", "manifest push"],
  kubectl: [
    "apply",
    "create",
    "delete",
    "replace",
    "patch",
    "edit",
    "scale",
    "set",
    "label",
    "annotate",
    "rollout",
    "drain",
    "cordon",
    "uncordon",
    "taint",
    "expose",
    "run",
    "autoscale",
  ],
  oc: ["apply", "create", "delete", "replace", "patch", "edit", "scale", "set", "label", "annotate", "rollout"],
  helm: ["install", "upgrade", "uninstall", "delete", "rollback", "push"],
  terraform: ["apply", "destroy", "import", "taint", "untaint", "force-unlock", "state rm", "state mv", "state push"],
  tofu: ["apply", "destroy", "import", "taint", "untaint", "force-unlock", "state rm", "state mv", "state push"],
};

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

// A copy's destination on another machine: `host:path`, `user@host:path`, `rsync://…` (not `./a:b`, `/a:b`, `C:\x`).
const REMOTE = /^(?:rsync:\/\/|[^/.\s:][^/\s:]+:)/;

/** The options of `scp` and `rsync` whose value is the next word (`-P 22`, `--exclude a:b`). */
const COPY_VALUE: Readonly<Record<string, ReadonlySet<string>>> = {
  scp: new Set(["-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J", "-D", "-X"]),
  rsync: new Set([
    ...["-e", "--rsh", "-f", "--filter", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from"],
    ...["-T", "--temp-dir", "--partial-dir", "--backup-dir", "--compare-dest", "--copy-dest", "--link-dest", "--chmod", "--chown"],
    ...["--usermap", "--groupmap", "--password-file", "--log-file", "--out-format", "--suffix", "-B", "--block-size", "--port"],
  ]),
};

/** `scp` and `rsync` to another machine: the last of their operands (no option, no option's value) names it. */
function copiesOut(tool: string, argv: string[]): boolean {
  const takesValue = COPY_VALUE[tool] ?? new Set<string>();
  const operands = argv.slice(1).filter((w, k, all) => !w.startsWith("-") && !takesValue.has(all[k - 1] ?? ""));
  return operands.length >= 2 && REMOTE.test(operands[operands.length - 1] ?? "");
}

/** `cargo owner` and `gem owner` add or remove an owner on the registry with these; alone they list. */
const OWNER_CHANGE = new Set(["-a", "--add", "-r", "--remove"]);

/** `aws s3 cp|mv|sync` to an `s3://` destination, and `aws s3 rm|rb|mb` of one. */
function awsS3Writes(pos: string[]): boolean {
  if (pos[0] !== "s3") return false;
  const targets = pos.slice(2);
  if (["rm", "rb", "mb"].includes(pos[1] ?? "")) return targets.some((t) => t.startsWith("s3://"));
  return ["cp", "mv", "sync"].includes(pos[1] ?? "") && (targets[targets.length - 1] ?? "").startsWith("s3://");
}

/** What an unwrapped command writes outward, as "tool subcommand"; null when it only reads. */
export function outwardWrite(argv: string[]): string | null {
  const tool = programName(argv[0] ?? "");
  if (tool === "scp" || tool === "rsync") return copiesOut(tool, argv) ? `${tool} to another machine` : null;
  if (tool === "curl") return curlWrites(argv) ? "curl with a writing method or data" : null;
  if (tool === "wget") return wgetWrites(argv) ? "wget with a writing method or data" : null;
  const pos = commandPath(argv);
  if (tool === "aws") return awsS3Writes(pos) ? `aws s3 ${pos[1]} to s3://` : null;
  if ((tool === "cargo" || tool === "gem") && pos[0] === "owner") {
    return argv.some((w) => OWNER_CHANGE.has(w) || /^--(?:add|remove)=/.test(w)) ? `${tool} owner --add/--remove` : null;
  }
  if (tool === "gh" && pos[0] === "api") return ghApiWrites(argv) ? "gh api with a writing method or fields" : null;
  if ((tool === "docker" || tool === "podman") && pos[0] === "buildx" && argv.includes("--push")) {
    return `${tool} buildx --push`;
  }
  const path = pos.join(" ");
  const hit = (ownEntry(OUTWARD, tool) ?? []).find((sub) => path === sub || path.startsWith(`${sub} `));
  return hit ? `${tool} ${hit}` : null;
}
