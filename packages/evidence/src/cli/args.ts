import { isAbsolute } from "node:path";
import { describeArgFault, onlyFlags, parseArgv, versionAfterCommand, type ArgFault, type FlagSpecs, type FlagValues } from "@decay/cli-kit";
import { err, ok, type Result } from "neverthrow";
import type { Layout } from "../store/location.js";
import type { CliFault } from "./fault.js";

/** Options every command takes. */
export interface GlobalOptions {
  readonly home: string | undefined;
  readonly layout: Layout | undefined;
  readonly repo: string | undefined;
  readonly json: boolean;
  /** `--max-input-bytes`: the bound on a record file and on each store file read. */
  readonly maxInputBytes: number | undefined;
}

/** What `publish` was told on the command line. */
export interface PublishFlags {
  readonly github: string;
  readonly allowPublish: boolean;
  readonly contentSha256: string | undefined;
  readonly authorId: bigint | undefined;
  readonly authorLogin: string | undefined;
  readonly apiUrl: string | undefined;
}

/** One parsed invocation. */
export type Invocation =
  | { readonly command: "help" | "version"; readonly json: boolean }
  | { readonly command: "hash"; readonly file: string; readonly body: boolean; readonly global: GlobalOptions }
  | { readonly command: "slug"; readonly path: string; readonly global: GlobalOptions }
  | { readonly command: "prepare"; readonly file: string; readonly global: GlobalOptions }
  | { readonly command: "status"; readonly global: GlobalOptions }
  | { readonly command: "publish"; readonly path: string; readonly flags: PublishFlags; readonly global: GlobalOptions };

// Every command's flags, read in one pass (a command word may stand anywhere); `onlyFlags` then
// refuses a flag the command does not take.
const OPTIONS = {
  home: { type: "string" },
  layout: { type: "string" },
  repo: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  body: { type: "boolean" },
  github: { type: "string" },
  "allow-publish": { type: "boolean" },
  "content-sha256": { type: "string" },
  "author-id": { type: "string" },
  "author-login": { type: "string" },
  "api-url": { type: "string" },
  "max-input-bytes": { type: "string" },
} as const satisfies FlagSpecs;

type Values = FlagValues<typeof OPTIONS>;

/** The most `--max-input-bytes` accepts: 256 MiB. */
export const MAX_INPUT_CEILING = 256 * 1024 * 1024;

/** The flags of the commands that open the store (it reads its files within `--max-input-bytes`). */
const STORE = ["home", "layout", "repo", "max-input-bytes"];
/**
 * The flags each command uses, besides `--json` and `--help` (help wins wherever it stands); any
 * other is refused, naming it, never ignored. `--version` takes `--json` alone and no argument.
 */
const OWN: Readonly<Record<string, readonly string[]>> = {
  hash: ["body", "max-input-bytes"],
  slug: [],
  prepare: STORE,
  status: STORE,
  publish: [...STORE, "github", "allow-publish", "content-sha256", "author-id", "author-login", "api-url"],
};
const EVERY = ["json", "help"];
const ARITY: Readonly<Record<string, number>> = { hash: 1, slug: 1, prepare: 1, status: 0, publish: 1 };

const usage = (detail: string): Result<never, CliFault> => err({ code: "usage", detail });

function globalOptions(v: Values): Result<GlobalOptions, CliFault> {
  if (v.layout !== undefined && v.layout !== "decay" && v.layout !== "agentflow") {
    return usage(`--layout must be decay or agentflow, not ${JSON.stringify(v.layout)}`);
  }
  if (v.home !== undefined && !isAbsolute(v.home)) return usage(`--home must be an absolute path, not ${JSON.stringify(v.home)}`);
  const max = v["max-input-bytes"];
  if (max !== undefined && (!/^[1-9][0-9]*$/.test(max) || Number(max) > MAX_INPUT_CEILING)) {
    return usage(`--max-input-bytes must be a whole number of bytes from 1 to ${MAX_INPUT_CEILING}, not ${JSON.stringify(max)}`);
  }
  return ok({ home: v.home, layout: v.layout, repo: v.repo, json: v.json === true, maxInputBytes: max === undefined ? undefined : Number(max) });
}

/** Why `--api-url` cannot be used (checked before any request), or `undefined`. */
function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "it does not parse as an absolute URL (scheme://host/...)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `its scheme is ${url.protocol.slice(0, -1)}, not https or http`;
  if (url.username !== "" || url.password !== "") return "it holds credentials; the token comes from GITHUB_TOKEN";
  if (url.search !== "" || url.hash !== "") return "it holds a query or a fragment";
  return undefined;
}

function publishFlags(v: Values): Result<PublishFlags, CliFault> {
  if (v.github === undefined) return usage("publish needs --github OWNER/REPO");
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(v.github)) {
    return usage(`--github ${JSON.stringify(v.github)} is not OWNER/REPO (two names of letters, digits, _ . or -, one /)`);
  }
  const hash = v["content-sha256"];
  if (v["allow-publish"] === true && (hash === undefined || !/^[0-9a-f]{64}$/.test(hash))) {
    return usage("--allow-publish needs --content-sha256 with the 64 lower-case hex digits you approved");
  }
  const id = v["author-id"];
  if (id !== undefined && !/^[1-9][0-9]*$/.test(id)) return usage("--author-id must be a positive integer");
  if ((id === undefined) !== (v["author-login"] === undefined)) return usage("--author-id and --author-login go together");
  const apiProblem = v["api-url"] === undefined ? undefined : urlProblem(v["api-url"]);
  if (apiProblem !== undefined) return usage(`--api-url ${JSON.stringify(v["api-url"])} is not a valid URL: ${apiProblem}`);
  return ok({
    github: v.github,
    allowPublish: v["allow-publish"] === true,
    contentSha256: hash,
    authorId: id === undefined ? undefined : BigInt(id),
    authorLogin: v["author-login"],
    apiUrl: v["api-url"],
  });
}

const argFault = (f: ArgFault): CliFault => ({ code: "usage", detail: describeArgFault(f) });

function parsed(argv: readonly string[]): Result<{ values: Values; positionals: readonly string[] }, CliFault> {
  return parseArgv(argv, { flags: OPTIONS }).mapErr(argFault);
}

/** Turns argv (without node and the script) into an invocation, or a usage fault. */
export function parseInvocation(argv: readonly string[]): Result<Invocation, CliFault> {
  return parsed(argv).andThen(({ values, positionals }) => {
    if (values.help === true) return ok({ command: "help", json: values.json === true } as const);
    if (values.version === true) {
      // `--version` alone (with `--json`, which shapes what it prints, and a command word): `--version extra` is refused.
      return versionAfterCommand({ values, positionals }, OWN, "decay-evidence", ["json"])
        .mapErr(argFault)
        .map(() => ({ command: "version", json: values.json === true }) as const);
    }
    const [command, ...rest] = positionals;
    if (command === undefined) return usage("a command is required");
    // Own keys only: a command named like an Object method ("constructor") is unknown, not a crash.
    const own = Object.hasOwn(OWN, command) ? OWN[command] : undefined;
    if (own === undefined) return usage(`unknown command ${JSON.stringify(command)}`);
    const stray = onlyFlags(values, [...EVERY, ...own], `decay-evidence ${command}`).mapErr(argFault);
    if (stray.isErr()) return err(stray.error);
    const arity = ARITY[command] ?? 0;
    if (rest.length > arity) return err(argFault({ code: "unexpected-argument", value: rest[arity] as string }));
    if (rest.length !== arity) return usage(`${command} takes ${arity} argument(s), got ${rest.length}`);
    const arg = rest[0] ?? "";
    return globalOptions(values).andThen((global): Result<Invocation, CliFault> => {
      if (command === "hash") return ok({ command, file: arg, body: values.body === true, global });
      if (command === "slug") return ok({ command, path: arg, global });
      if (command === "prepare") return ok({ command, file: arg, global });
      if (command === "status") return ok({ command, global });
      return publishFlags(values).map((flags) => ({ command: "publish", path: arg, flags, global }) as const);
    });
  });
}
