import { helpHint, shown } from "@decay/cli-kit";
import { oneLine } from "@decay/portable";
import { describeEvidenceFault, type EvidenceFault } from "../fault.js";

/** What only the CLI can get wrong: its arguments, its input and output, its configuration. */
export type CliOwnFault =
  | { readonly code: "usage"; readonly detail: string }
  | { readonly code: "input-unreadable"; readonly path: string; readonly reason: string }
  | { readonly code: "input-not-utf8"; readonly path: string }
  | { readonly code: "input-has-bom"; readonly path: string }
  | { readonly code: "path-not-utf8"; readonly path: string }
  | { readonly code: "token-missing" }
  | { readonly code: "publish-settings"; readonly detail: string }
  | { readonly code: "github-repo-mismatch"; readonly given: string; readonly record: string }
  | { readonly code: "stdout-write-failed"; readonly reason: string };

/** Every fault `decay-evidence` reports. */
export type CliFault = CliOwnFault | EvidenceFault;

/** The fields of an evidence fault that hold a path, a name or a value from outside: the command line, the store's folder, a hand-edited envelope. */
const NAMES = ["path", "repo", "home", "project", "root", "expected", "actual"] as const;

/**
 * The fault with each name in it `shown`, so a line break or an escape in `--repo` or `--home`
 * stays on the message's one line; and its `detail`, which can quote a file it read (a `.git`
 * file's `gitdir:`, a `commondir`), with its control characters escaped.
 */
function namesShown(f: EvidenceFault): EvidenceFault {
  const copy: Record<string, unknown> = { ...f };
  for (const name of NAMES) if (typeof copy[name] === "string") copy[name] = shown(copy[name]);
  const { detail } = copy;
  if (typeof detail === "string") Object.assign(copy, { detail: oneLine(detail) });
  return copy as EvidenceFault;
}

/** The one place a CLI fault becomes a sentence. */
export function describeCliFault(f: CliFault): string {
  switch (f.code) {
    case "usage":
      return `usage: ${f.detail}${helpHint("decay-evidence")}`;
    case "input-unreadable":
      return `cannot read ${shown(f.path)}: ${f.reason}`;
    case "input-not-utf8":
      return `${shown(f.path)} is not valid UTF-8`;
    case "input-has-bom":
      return `${shown(f.path)} starts with a UTF-8 byte order mark (BOM); a record is UTF-8 without one (the envelope reader and the reference refuse it too)`;
    case "path-not-utf8":
      return `the path ${shown(f.path)} holds bytes that are not UTF-8 (shown as U+FFFD); the store folder would not be the one the reference names for it, so the path is refused`;
    case "token-missing":
      return "GITHUB_TOKEN is not set; publishing needs a token in the environment";
    case "publish-settings":
      return `cannot publish with the GITHUB_TOKEN and --api-url given: ${f.detail}; nothing was saved or sent`;
    case "github-repo-mismatch":
      return `--github ${f.given} does not match the record's repository ${f.record}; refusing to publish elsewhere`;
    case "stdout-write-failed":
      return `writing to standard output failed: ${f.reason}`;
    default:
      return describeEvidenceFault(namesShown(f));
  }
}

/**
 * The exit code of a fault: always 2. Listing every CLI code makes a new one fail to compile
 * until it is placed here; evidence faults are routed exhaustively by `describeEvidenceFault`.
 */
export function exitCodeFor(f: CliFault): 2 {
  switch (f.code) {
    case "usage":
    case "input-unreadable":
    case "input-not-utf8":
    case "input-has-bom":
    case "path-not-utf8":
    case "token-missing":
    case "publish-settings":
    case "github-repo-mismatch":
    case "stdout-write-failed":
      return 2;
    default:
      f satisfies EvidenceFault;
      return 2;
  }
}
