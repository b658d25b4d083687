import { err, ok, type Result } from "neverthrow";
import type { ParseFault } from "./faults.js";
import { checkCharacters } from "./rules.js";

/** A path as the plan wrote it, folded: its components and whether it named a directory. */
export interface PlanPath {
  /** Components joined by `/`, NFC, without `.`/empty components or a trailing `/`. */
  readonly path: string;
  readonly components: readonly string[];
  /** True when the plan wrote a trailing `/`. */
  readonly directory: boolean;
}

const PADDED = /^\s|\s$/u;

/**
 * Validates and folds one path (rule 5 and rule 6): relative, no backslash, no drive letter,
 * no `..`, no padded component, not the root; `.` and empty components folded away.
 */
export function parsePath(raw: string, line?: number): Result<PlanPath, ParseFault> {
  if (raw === "") return err({ code: "path-empty", line });
  return checkCharacters(raw, "path", line).andThen((path): Result<PlanPath, ParseFault> => {
    if (path.includes("\\")) return err({ code: "path-backslash", line, path: raw });
    if (path.startsWith("/")) return err({ code: "path-absolute", line, path: raw });
    if (/^[A-Za-z]:/.test(path)) return err({ code: "path-drive-letter", line, path: raw });
    const parts = path.split("/");
    const components: string[] = [];
    for (const part of parts) {
      if (part === "..") return err({ code: "path-dotdot", line, path: raw });
      if (PADDED.test(part)) return err({ code: "path-padded-component", line, path: raw, component: part });
      if (part !== "" && part !== ".") components.push(part);
    }
    if (components.length === 0) return err({ code: "path-is-root", line, path: raw });
    return ok({ path: components.join("/"), components, directory: path.endsWith("/") });
  });
}
