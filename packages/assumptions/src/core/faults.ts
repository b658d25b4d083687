import type { AssumptionKind } from "./model.js";

/** Which field of a row a character fault was found in. */
export type Field = "path" | "literal";

type At = { readonly line?: number };
type PathAt = At & { readonly path: string };
type CharFault<C extends string> = At & { readonly code: C; readonly field: Field; readonly value: string; readonly codePoint: number };

/** Every way reading an assumptions file can be refused. */
export type ParseFault =
  | (At & { readonly code: "plan-not-utf8"; readonly value: string })
  | (At & { readonly code: "cr-line-endings" })
  | { readonly code: "plan-empty" }
  | (At & { readonly code: "plan-too-large"; readonly limit: number })
  | (At & { readonly code: "comment-with-tab"; readonly value: string })
  | (At & { readonly code: "unknown-kind"; readonly value: string })
  | (At & { readonly code: "field-count"; readonly kind: AssumptionKind; readonly expected: number; readonly actual: number })
  | (At & { readonly code: "bad-digest"; readonly value: string })
  | (At & { readonly code: "literal-blank" })
  | (At & { readonly code: "literal-padded"; readonly value: string })
  | (At & { readonly code: "literal-line-break"; readonly value: string })
  | (At & { readonly code: "path-empty" })
  | (PathAt & { readonly code: "path-backslash" | "path-absolute" | "path-drive-letter" | "path-dotdot" | "path-is-root" })
  | (PathAt & { readonly code: "path-padded-component"; readonly component: string })
  | (PathAt & { readonly code: "path-line-break"; readonly codePoint: number })
  | (PathAt & { readonly code: "path-too-deep"; readonly components: number; readonly limit: number })
  | (PathAt & { readonly code: "path-directory-for-file"; readonly kind: AssumptionKind })
  | CharFault<"control-character">
  | CharFault<"invisible-character">
  | CharFault<"compatibility-character">
  | (At & { readonly code: "mixed-script"; readonly field: Field; readonly value: string; readonly word: string });

/** Every way checking a tree can fail without a verdict. */
export type CheckFault =
  | (PathAt & { readonly code: "ambiguous-name"; readonly names: readonly string[] })
  | (PathAt & { readonly code: "link-outside-root"; readonly target: string })
  | (PathAt & { readonly code: "link-loop" })
  | (PathAt & { readonly code: "submodule" })
  | (PathAt & { readonly code: "not-a-file"; readonly entry: "directory" | "other" })
  | (At & { readonly code: "file-not-utf8"; readonly path?: string })
  | (PathAt & {
      readonly code: "tree-not-found" | "tree-not-a-directory" | "tree-not-a-file" | "tree-too-large" | "tree-io";
      readonly message: string;
    });

/** Every way authoring an assumptions file can be refused. */
export type AuthorFault = PathAt & { readonly code: "create-exists" | "create-variant"; readonly spelled: string };

/**
 * An option of `checkTree`, `digestPath` or `authorAssumptions` that cannot be used (a `maxBytes`
 * that is no positive integer): refused before the tree is read, never judged with.
 */
export type OptionFault = { readonly code: "option-invalid"; readonly option: string; readonly issue: string };

/** Every fault of @decay/assumptions: a discriminated union on `code`, each member carrying its data. */
export type AssumptionsFault = ParseFault | CheckFault | AuthorFault | OptionFault;

/** Every fault code, in one tuple (the CLI maps each to exit 2 in one exhaustive switch). */
export const ASSUMPTIONS_FAULT_CODES = [
  "plan-not-utf8",
  "cr-line-endings",
  "plan-empty",
  "plan-too-large",
  "comment-with-tab",
  "unknown-kind",
  "field-count",
  "bad-digest",
  "literal-blank",
  "literal-padded",
  "literal-line-break",
  "path-empty",
  "path-backslash",
  "path-absolute",
  "path-drive-letter",
  "path-dotdot",
  "path-is-root",
  "path-padded-component",
  "path-line-break",
  "path-too-deep",
  "path-directory-for-file",
  "control-character",
  "invisible-character",
  "compatibility-character",
  "mixed-script",
  "ambiguous-name",
  "link-outside-root",
  "link-loop",
  "submodule",
  "not-a-file",
  "file-not-utf8",
  "tree-not-found",
  "tree-not-a-directory",
  "tree-not-a-file",
  "tree-too-large",
  "tree-io",
  "create-exists",
  "create-variant",
  "option-invalid",
] as const satisfies readonly AssumptionsFault["code"][];

/** A fault code of @decay/assumptions. */
export type AssumptionsFaultCode = (typeof ASSUMPTIONS_FAULT_CODES)[number];

// Compile-time proof that the tuple lists every code of the union, not only some.
type Missing = Exclude<AssumptionsFault["code"], AssumptionsFaultCode>;
const everyCodeListed: [Missing] extends [never] ? true : Missing = true;
void everyCodeListed;
