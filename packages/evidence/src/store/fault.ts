import { errnoSaid } from "@decay/portable";
import type { StoreFsError } from "./port.js";

/**
 * Every way the pending store refuses or fails. Each member carries the data its sentence is
 * rendered from; `describeStoreFault` is the one place that renders it.
 */
export type StoreFault =
  | StoreFsError
  | { readonly code: "home-unusable"; readonly home: string | null; readonly reason: "unset" | "relative" | "missing" | "not-a-directory" }
  | { readonly code: "home-inside-project"; readonly home: string; readonly project: string }
  | { readonly code: "not-a-repository-root"; readonly repo: string; readonly detail: string }
  | { readonly code: "symlink-in-store-path"; readonly path: string }
  | { readonly code: "foreign-owner"; readonly path: string; readonly uid: number; readonly expected: number }
  | { readonly code: "not-a-directory"; readonly path: string }
  | { readonly code: "path-outside-store"; readonly path: string; readonly root: string }
  | { readonly code: "legacy-not-ignored"; readonly path: string }
  | { readonly code: "legacy-tracked"; readonly path: string }
  | { readonly code: "git-failed"; readonly args: readonly string[]; readonly detail: string }
  | { readonly code: "invalid-envelope"; readonly path: string; readonly field: string; readonly detail: string }
  | { readonly code: "content-hash-mismatch"; readonly path: string; readonly expected: string; readonly actual: string }
  | { readonly code: "envelope-path-mismatch"; readonly path: string; readonly expected: string }
  | { readonly code: "immutable-changed"; readonly path: string }
  | { readonly code: "lock-held"; readonly path: string; readonly owner: string }
  | { readonly code: "not-a-regular-file"; readonly path: string; readonly kind: "directory" | "other" }
  | { readonly code: "file-too-large"; readonly path: string; readonly size: number; readonly limit: number };

/** The code of every store fault, for exhaustive switches. */
export type StoreFaultCode = StoreFault["code"];

/** Renders one store fault as a sentence naming the path or value it is about. */
export function describeStoreFault(f: StoreFault): string {
  switch (f.code) {
    case "store-fs": {
      // A code the errno table knows is said in its words; any other keeps the system's message.
      const said = errnoSaid(f.errno);
      return said === null ? `evidence store: ${f.op} ${f.path} failed (${f.errno}): ${f.message}` : `evidence store: ${f.op} ${f.path} failed: ${said}`;
    }
    case "home-unusable":
      return f.home === null
        ? "evidence store: HOME is not set; pass a home directory"
        : `evidence store: HOME ${f.home} is not usable (${f.reason}); it must be an absolute path to an existing directory`;
    case "home-inside-project":
      return `evidence store: HOME ${f.home} must be outside the project ${f.project}, so the store writes nothing into it`;
    case "not-a-repository-root":
      return `evidence store: ${f.repo} is not the root of a git checkout (${f.detail})`;
    case "symlink-in-store-path":
      return `evidence store: ${f.path} is a symlink; refusing to use or write through it`;
    case "foreign-owner":
      return `evidence store: ${f.path} belongs to user ${f.uid}, not ${f.expected}; refusing it`;
    case "not-a-directory":
      return `evidence store: ${f.path} is not a directory`;
    case "path-outside-store":
      return `evidence store: ${f.path} is not a file directly inside the store ${f.root}`;
    case "legacy-not-ignored":
      return `evidence store: the legacy folder ${f.path} is not ignored by git; refusing to use it`;
    case "legacy-tracked":
      return `evidence store: the legacy folder ${f.path} holds files tracked by git; refusing to use it`;
    case "git-failed":
      return `evidence store: git ${f.args.join(" ")} failed: ${f.detail}`;
    case "invalid-envelope":
      return `evidence store: ${f.path}: invalid pending envelope at ${f.field === "" ? "its top level" : f.field}: ${f.detail}`;
    case "content-hash-mismatch":
      return `evidence store: ${f.path}: saved content_sha256 ${f.actual} does not match the content (${f.expected})`;
    case "envelope-path-mismatch":
      return `evidence store: ${f.path}: the envelope belongs at ${f.expected}`;
    case "immutable-changed":
      return `evidence store: ${f.path} already holds different content; an immutable snapshot never changes`;
    case "lock-held":
      return `evidence store: ${f.path} is locked by ${f.owner}: a prepare or publish of this attempt is running; try again when it ends`;
    case "not-a-regular-file":
      return `evidence store: ${f.path} is ${f.kind === "directory" ? "a directory" : "a FIFO, socket or device"}, not a regular file; refusing to read or write it`;
    case "file-too-large":
      return `evidence store: ${f.path} is ${f.size} bytes, larger than the limit of ${f.limit} bytes; refusing to read it`;
  }
}
