import type { CliFault } from "./faults.js";
import type { AssumptionsFault } from "./gate.js";

/** Any fault a plan-decay run can end in. */
export type GateFault = AssumptionsFault | CliFault;

/** The four exit codes: 0 holds, 1 diverged, 2 every fault or usage error, 3 digest printed. */
export const EXIT = { holds: 0, diverged: 1, fault: 2, digest: 3 } as const;

/**
 * The one place a fault picks its exit code. Exhaustive: a fault code added to the core or the
 * CLI does not compile until it is listed here. Every fault is 2; none may ever be a verdict.
 */
export function exitCodeFor(fault: GateFault): typeof EXIT.fault {
  switch (fault.code) {
    case "plan-not-utf8":
    case "cr-line-endings":
    case "plan-empty":
    case "plan-too-large":
    case "comment-with-tab":
    case "unknown-kind":
    case "field-count":
    case "bad-digest":
    case "literal-blank":
    case "literal-padded":
    case "literal-line-break":
    case "path-empty":
    case "path-backslash":
    case "path-absolute":
    case "path-drive-letter":
    case "path-dotdot":
    case "path-is-root":
    case "path-padded-component":
    case "path-line-break":
    case "path-too-deep":
    case "path-directory-for-file":
    case "control-character":
    case "invisible-character":
    case "compatibility-character":
    case "mixed-script":
    case "ambiguous-name":
    case "link-outside-root":
    case "link-loop":
    case "submodule":
    case "not-a-file":
    case "file-not-utf8":
    case "tree-not-found":
    case "tree-not-a-directory":
    case "tree-not-a-file":
    case "tree-too-large":
    case "tree-io":
    case "create-exists":
    case "create-variant":
    case "option-invalid":
    case "usage-unknown-flag":
    case "usage-missing-value":
    case "usage-unexpected-value":
    case "usage-bad-value":
    case "usage-repeated-flag":
    case "usage-not-for-command":
    case "usage-equals-after-short":
    case "usage-missing-root":
    case "usage-empty-root":
    case "usage-missing-input":
    case "usage-extra-argument":
    case "usage-conflict":
    case "usage-nothing-to-author":
    case "root-unusable":
    case "input-unreadable":
    case "output-unwritable":
    case "output-is-input":
    case "output-in-plan":
    case "stdout-write-failed":
    case "report-invalid":
    case "report-too-large":
    case "internal":
      return EXIT.fault;
  }
}
