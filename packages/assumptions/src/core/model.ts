import { z } from "zod";

/** The five kinds of belief an assumptions file can state. */
export const AssumptionKind = z.enum(["exists", "absent", "contains", "lacks", "unchanged"]);
/** The five kinds of belief an assumptions file can state. */
export type AssumptionKind = z.infer<typeof AssumptionKind>;

const base = {
  /** 1-based line of the assumptions file the row was read from. */
  line: z.number().int().positive(),
  /** Folded (no `.` or empty components), NFC, no trailing `/`. */
  path: z.string().min(1),
};

/** One checkable belief about the tree, as parsed from one row of an assumptions file. */
export const Assumption = z.discriminatedUnion("kind", [
  z.object({ ...base, kind: z.enum(["exists", "absent"]), directory: z.boolean() }),
  z.object({ ...base, kind: z.enum(["contains", "lacks"]), literal: z.string().min(1) }),
  z.object({ ...base, kind: z.literal("unchanged"), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
]);
/** One checkable belief about the tree, as parsed from one row of an assumptions file. */
export type Assumption = z.infer<typeof Assumption>;

/** The outcome of one row: held or diverged, with a detail and the tree's spelling when it differs. */
export const ReportRow = z.object({
  line: z.number().int().positive(),
  kind: AssumptionKind,
  path: z.string(),
  status: z.enum(["hold", "diverge"]),
  detail: z.string(),
  spelled: z.string().optional(),
});
/** The outcome of one row: held or diverged, with a detail and the tree's spelling when it differs. */
export type ReportRow = z.infer<typeof ReportRow>;

/** The gate's verdict over a whole assumptions file, rows in input order. */
export const Report = z.object({
  verdict: z.enum(["holds", "diverged"]),
  root: z.string(),
  checked: z.number().int().nonnegative(),
  held: z.number().int().nonnegative(),
  diverged: z.number().int().nonnegative(),
  rows: z.array(ReportRow),
});
/** The gate's verdict over a whole assumptions file, rows in input order. */
export type Report = z.infer<typeof Report>;
