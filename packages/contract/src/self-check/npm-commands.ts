// How npm names its commands: npm 11's command list and alias table (lib/utils/cmd-list.js), read
// the way npm's `deref` reads them, so `npm pub`, `npm publ` and `npm unpub` are the commands they run;
// and pnpm's few aliases of its registry commands.

/** npm's commands (npm 11.19, `lib/utils/cmd-list.js`). */
const COMMANDS = [
  "access",
  "adduser",
  "approve-scripts",
  "audit",
  "bugs",
  "cache",
  "ci",
  "completion",
  "config",
  "dedupe",
  "deny-scripts",
  "deprecate",
  "diff",
  "dist-tag",
  "docs",
  "doctor",
  "edit",
  "exec",
  "explain",
  "explore",
  "find-dupes",
  "fund",
  "get",
  "help",
  "help-search",
  "init",
  "install",
  "install-ci-test",
  "install-scripts",
  "install-test",
  "link",
  "ll",
  "login",
  "logout",
  "ls",
  "org",
  "outdated",
  "owner",
  "pack",
  "ping",
  "pkg",
  "prefix",
  "profile",
  "prune",
  "publish",
  "query",
  "rebuild",
  "repo",
  "restart",
  "root",
  "run",
  "sbom",
  "search",
  "set",
  "shrinkwrap",
  "stage",
  "star",
  "stars",
  "start",
  "stop",
  "team",
  "test",
  "token",
  "trust",
  "undeprecate",
  "uninstall",
  "unpublish",
  "unstar",
  "update",
  "version",
  "view",
  "whoami",
];

/** npm's alias table, as `word=command` pairs: each names a command above. */
const ALIASES = new Map(
  (
    "author=owner home=docs issues=bugs info=view show=view find=search add=install unlink=uninstall remove=uninstall rm=uninstall " +
    "r=uninstall un=uninstall rb=rebuild list=ls ln=link create=init i=install it=install-test cit=install-ci-test u=update up=update " +
    "c=config s=search se=search tst=test t=test ddp=dedupe v=view run-script=run clean-install=ci clean-install-test=install-ci-test " +
    "x=exec why=explain la=ll verison=version ic=ci innit=init in=install ins=install inst=install insta=install instal=install " +
    "isnt=install isnta=install isntal=install isntall=install install-clean=ci isntall-clean=ci hlep=help dist-tags=dist-tag " +
    "upgrade=update udpate=update rum=run sit=install-ci-test urn=run ogr=org add-user=adduser"
  )
    .split(" ")
    .map((pair) => pair.split("=") as [string, string]),
);

const WORDS = [...COMMANDS, ...ALIASES.keys()];

/**
 * The npm command a command word names, as npm resolves it, or undefined when it names none:
 * camelCase is read as kebab-case (`distTag` is `dist-tag`); then the command itself, an alias
 * (`author` is `owner`), or a unique prefix of one word of the two lists (`pub` is `publish`,
 * `unp` is `unpublish`; `p` and `de` are prefixes of several, so none), the alias it names resolved.
 */
export function npmCommand(word: string): string | undefined {
  if (word === "") return undefined;
  const c = /[A-Z]/.test(word) ? word.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`) : word;
  if (COMMANDS.includes(c)) return c;
  const alias = ALIASES.get(c);
  if (alias !== undefined) return alias;
  const named = WORDS.filter((w) => w.startsWith(c));
  if (named.length !== 1) return undefined;
  const hit = named[0] as string;
  return ALIASES.get(hit) ?? hit;
}

/** `[word, canonical]` pairs naming one subcommand by each of `words`. */
const named = (canonical: string, words: readonly string[]) => words.map((w): [string, string] => [w, canonical]);

/**
 * The subcommands npm takes under more than one name, by each (npm 11's `lib/commands/*.js`):
 * `dist-tag set` adds a tag and `del` removes one; `owner remove` is `owner rm`; `token rm`,
 * `delete` and `remove` are `token revoke`; `org add` is `org set`; `profile enable-tfa`,
 * `enable2fa` and `enabletfa` are `enable-2fa` (and so for `disable-2fa`). Every other subcommand
 * npm reads by its one name, exactly (no prefixes), and is kept as typed.
 */
const NPM_SUBCOMMANDS: Readonly<Record<string, ReadonlyMap<string, string>>> = {
  "dist-tag": new Map([...named("add", ["add", "a", "set", "s"]), ...named("rm", ["rm", "r", "del", "d", "remove"])]),
  owner: new Map([...named("add", ["add"]), ...named("rm", ["rm", "remove"])]),
  token: new Map([...named("create", ["create"]), ...named("revoke", ["revoke", "rm", "delete", "remove"])]),
  org: new Map(named("set", ["set", "add"])),
  profile: new Map([
    ...named("enable-2fa", ["enable-2fa", "enable-tfa", "enable2fa", "enabletfa"]),
    ...named("disable-2fa", ["disable-2fa", "disable-tfa", "disable2fa", "disabletfa"]),
  ]),
};

/** pnpm's aliases of its registry commands (pnpm 12: `dist-tags`, `owners`, and `adduser` for `login`). */
const PNPM_ALIASES: ReadonlyMap<string, string> = new Map([
  ["dist-tags", "dist-tag"],
  ["owners", "owner"],
  ["adduser", "login"],
]);

/** The subcommands pnpm takes under more than one name, by each: `token rm`, `delete` and `remove` are `token revoke`. */
const PNPM_SUBCOMMANDS: Readonly<Record<string, ReadonlyMap<string, string>>> = {
  token: new Map(named("revoke", ["revoke", "rm", "delete", "remove"])),
};

/**
 * A package manager's command word as `tool` reads it: npm's resolved as npm resolves it
 * (`npmCommand`: `npm rum` is `run`; kept as typed when it names none); pnpm's aliases of its
 * registry commands by the command they name (pnpm 12 takes no prefixes); any other tool's as typed.
 */
export function commandWord(tool: string, word: string): string {
  if (tool === "npm") return npmCommand(word) ?? word;
  return (tool === "pnpm" && PNPM_ALIASES.get(word)) || word;
}

/** The subcommands `tool` takes under several names, for `command`; undefined when it has none. */
function subcommands(tool: string, command: string): ReadonlyMap<string, string> | undefined {
  const table = tool === "npm" ? NPM_SUBCOMMANDS : tool === "pnpm" ? PNPM_SUBCOMMANDS : {};
  return Object.hasOwn(table, command) ? table[command] : undefined;
}

/**
 * A command line's positional words as `tool` reads them: the command word by `commandWord`, and
 * for npm and pnpm a subcommand taken under several names by its canonical one (`npm dist-tags set`
 * is `dist-tag add`, `npm tok rm` and `pnpm token delete` are `token revoke`).
 */
export function toolPath(tool: string, pos: readonly string[]): string[] {
  const [word, sub, ...rest] = pos;
  if (word === undefined) return [];
  const command = commandWord(tool, word);
  if (sub === undefined) return [command];
  return [command, subcommands(tool, command)?.get(sub) ?? sub, ...rest];
}
