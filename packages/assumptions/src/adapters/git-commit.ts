// The headers gitTree reads from a commit or an annotated tag, from bytes already checked against
// their id: a commit's tree line and the parent lines straight after it (git's
// parse_commit_buffer reads no others), a tag's object and type lines. Anything else is a corrupt
// object.
import { gitError, type GitObject } from "./git-store.js";

/** What resolving a ref needs of one object: a commit's tree and parents, a tag's target, or only a type. */
export type Peeled =
  | { readonly type: "commit"; readonly tree: string; readonly parents: readonly string[] }
  | { readonly type: "tag"; readonly target: string; readonly targetType: string }
  | { readonly type: "tree" | "blob" };

const ID_LINE = /^([a-z]+) ([0-9a-fA-F]{40})$/;

/** The header lines of `content`: up to the first blank line, or the end. */
function headerLines(content: Uint8Array): string[] {
  const text = new TextDecoder().decode(content);
  const end = text.indexOf("\n\n");
  return (end === -1 ? text : text.slice(0, end)).split("\n");
}

/** The id on `line` if it is `KEY <40 hex>`, lowercased; `undefined` otherwise. */
function idOn(line: string | undefined, key: string): string | undefined {
  const m = ID_LINE.exec(line ?? "");
  return m?.[1] === key ? m[2]?.toLowerCase() : undefined;
}

/** Reads the headers of `object` (named `oid`) that peeling and walking parents use; throws an `InternalError` naming what is wrong. */
export function peel(oid: string, object: GitObject): Peeled {
  if (object.type === "tree" || object.type === "blob") return { type: object.type };
  const lines = headerLines(object.content);
  if (object.type === "tag") {
    const target = idOn(lines[0], "object");
    if (target === undefined) throw gitError("InternalError", `the tag ${oid} does not start with an object line`);
    const targetType = /^type (commit|tree|blob|tag)$/.exec(lines[1] ?? "")?.[1];
    if (targetType === undefined) throw gitError("InternalError", `the tag ${oid} has no type line after its object line`);
    return { type: "tag", target, targetType };
  }
  const tree = idOn(lines[0], "tree");
  if (tree === undefined) throw gitError("InternalError", `the commit ${oid} does not start with a tree line`);
  const parents: string[] = [];
  for (let i = 1; lines[i]?.startsWith("parent ") === true; i++) {
    const parent = idOn(lines[i], "parent");
    if (parent === undefined) throw gitError("InternalError", `the commit ${oid} has a bad parent line`);
    parents.push(parent);
  }
  return { type: "commit", tree, parents };
}
