import { decodeStrictUtf8, errnoSaid } from "@decay/portable";
import { show } from "../core/describe.js";
import type { TreeError } from "../tree.js";

/** The sentence each tree failure is rendered with; the one place an adapter words a failure. */
const SENTENCES: Record<TreeError["code"], (path: string, detail: string) => string> = {
  "tree-not-found": (p, d) => `${shown(p)} does not exist${d ? ` (${d})` : ""}`,
  "tree-not-a-directory": (p, d) => `${shown(p)} is not a directory${d ? ` (${d})` : ""}`,
  "tree-not-a-file": (p, d) => `${shown(p)} is not a regular file${d ? ` (${d})` : ""}`,
  "tree-too-large": (p, d) => `${shown(p)} is larger than ${d}`,
  "tree-io": (p, d) => `cannot read ${shown(p)}: ${d}`,
};

// Quoted as every message quotes a value: invisible characters shown, at most 80 characters.
function shown(path: string): string {
  return path === "" ? "the tree root" : show(path);
}

/** Builds a TreeError whose message is rendered from its code, path and a short detail. */
export function treeError(code: TreeError["code"], path: string, detail = ""): TreeError {
  return { code, path, message: SENTENCES[code](path, detail) };
}

/**
 * The `code` an fs or isomorphic-git error carries (`ENOENT`, `NotFoundError`), else its text;
 * for a refusal of the git object-store guard, its sentence (which names the file).
 */
export function errorCode(e: unknown): string {
  const { code, detail } = (e ?? {}) as { code?: unknown; detail?: unknown };
  if (code === "GitStoreRefused" && typeof detail === "string") return detail;
  return typeof code === "string" ? code : String(e);
}

/** The error's code said in words, the code kept after them (`permission denied (EACCES)`); a code the table lacks as it is. */
export function errorSaid(e: unknown): string {
  const code = errorCode(e);
  return errnoSaid(code) ?? code;
}

/**
 * An error in words for a message: the guard's sentence, isomorphic-git's own words (kept in
 * `data.message`, apart from its boilerplate) after its code, else the code; always one line.
 */
export function errorWords(e: unknown): string {
  const code = errorCode(e);
  const own = (e as { data?: { message?: unknown } } | null)?.data?.message;
  const words = typeof own === "string" && own !== "" ? `${code}: ${own}` : code;
  return words.replace(/\s+/g, " ").trim();
}

/** Joins a tree-relative path onto an adapter's base (`""` is the base itself). */
export function joinTree(base: string, path: string): string {
  if (path === "") return base;
  if (base === "" || base.endsWith("/")) return base + path;
  return `${base}/${path}`;
}

/**
 * True when a tree-relative path could leave the tree (absolute, `..`) — a caller bug the
 * adapters refuse rather than follow.
 */
export function escapesTree(path: string): boolean {
  if (path.startsWith("/")) return true;
  // One native search settles almost every path; only one holding ".." is looked at by component.
  if (!path.includes("..")) return false;
  return path === ".." || path.startsWith("../") || path.endsWith("/..") || path.includes("/../");
}

/**
 * Decodes a stored name or link target; `undefined` when its bytes are not UTF-8. A leading
 * U+FEFF is part of the name (no byte order mark in a name), as the file system spells it.
 */
export function decodeName(bytes: Uint8Array): string | undefined {
  return decodeStrictUtf8(bytes, { bom: "keep" }).unwrapOr(undefined);
}

/** A name's bytes for a message between double quotes: printable ASCII as it is, a backslash, a double quote or any other byte as `\xNN`. */
export function quotedBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => (b >= 0x20 && b < 0x7f && b !== 0x5c && b !== 0x22 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`)).join(
    "",
  );
}
