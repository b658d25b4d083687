// The repository formats gitTree reads: SHA-1 objects, format version 0 or 1 with only the
// extensions that change nothing for a reader of objects and refs, and no alternates (objects
// borrowed from another repository, which the object store does not look in), no replacement
// objects or grafts (which git applies to every read). Anything else is refused up front, saying
// why, rather than read as missing objects, a ref not found, or objects git would not show.

/**
 * Extensions git knows that a reader of one commit may ignore: a partial clone's missing objects
 * are faults when met; relative worktree paths are resolved as any `.git` file's are.
 */
const HARMLESS = new Set(["noop", "preciousobjects", "partialclone", "worktreeconfig", "relativeworktrees"]);

/** The `core.repositoryformatversion` and `extensions.*` of a config file's text (names lowercased). */
function formatOf(config: string): { version: string; extensions: Map<string, string> } {
  let section = "";
  let version = "0";
  const extensions = new Map<string, string>();
  for (const raw of config.split("\n")) {
    let line = raw.trim();
    const header = /^\[([^\]]*)\](.*)$/.exec(line);
    if (header !== null) {
      section = (header[1] ?? "").trim().toLowerCase();
      line = (header[2] ?? "").trim();
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (kv === null) continue;
    const key = (kv[1] ?? "").toLowerCase();
    const value = (kv[2] ?? "true")
      .replace(/\s*[#;].*$/, "")
      .replace(/^"(.*)"$/, "$1")
      .trim()
      .toLowerCase();
    if (section === "core" && key === "repositoryformatversion") version = value;
    if (section === "extensions") extensions.set(key, value);
  }
  return { version, extensions };
}

/** What of a repository decides whether gitTree reads it; a text is `undefined` where its file is absent. */
export interface RepoFormatFiles {
  readonly config: string | undefined;
  readonly alternates: string | undefined;
  readonly packedRefs: string | undefined;
  readonly grafts: string | undefined;
  /** The names in `refs/replace/` (none when it is absent). */
  readonly replaceRefs: readonly string[];
}

const meaningful = (text: string | undefined) => text?.split("\n").some((l) => l.trim() !== "" && !l.startsWith("#")) === true;

/**
 * Why gitTree does not read the repository whose common dir is `where`, from its files;
 * `undefined` when it reads it.
 */
export function formatProblem(where: string, files: RepoFormatFiles): string | undefined {
  const { config, alternates } = files;
  const { version, extensions } = formatOf(config ?? "");
  const objects = extensions.get("objectformat") ?? "sha1";
  if (objects !== "sha1") return `${where} is a ${objects} repository (extensions.objectformat); gitTree reads SHA-1 repositories only`;
  if (version !== "0" && version !== "1") return `${where} has repository format version ${version}; gitTree reads versions 0 and 1`;
  for (const [name, value] of extensions) {
    const known = HARMLESS.has(name) || (name === "objectformat" && value === "sha1") || (name === "refstorage" && value === "files");
    if (version === "1" && !known) return `${where} uses the repository extension "${name}", which gitTree does not read`;
  }
  if (meaningful(alternates)) return `${where} borrows objects from other repositories (objects/info/alternates), which gitTree does not read`;
  if (files.replaceRefs.length > 0 || meaningful(files.grafts) || / refs\/replace\//.test(files.packedRefs ?? "")) {
    return `${where} replaces objects (refs/replace/ or info/grafts), which git applies to every read and gitTree does not`;
  }
  return undefined;
}
