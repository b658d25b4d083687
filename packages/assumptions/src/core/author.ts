import { err, errAsync, ok, type Result, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import { digestAt } from "./digest.js";
import type { AssumptionsFault } from "./faults.js";
import { createLocator, locate, type Locator } from "./locate.js";
import { parsePath } from "./path.js";
import { DEFAULT_MAX_BYTES } from "./read.js";

/** Options of `authorAssumptions`: the paths a batch reads, edits and creates. */
export interface AuthorOptions {
  readonly tree: TreeReader;
  readonly reads?: readonly string[];
  readonly edits?: readonly string[];
  readonly creates?: readonly string[];
  /** Largest file read, in bytes; default 64 MiB. */
  readonly maxBytes?: number;
}

function unchangedRow(loc: Locator, raw: string, maxBytes: number): ResultAsync<string, AssumptionsFault> {
  return new ResultAsync(digestAt(loc, raw, maxBytes)).map(({ path, hex }) => `unchanged\t${path}\t${hex}`);
}

async function absentLine(loc: Locator, raw: string): Promise<Result<string, AssumptionsFault>> {
  const parsed = parsePath(raw);
  if (parsed.isErr()) return err(parsed.error);
  const { path, directory } = parsed.value;
  const located = await locate(loc, path.split("/"));
  if (located.isErr()) return err(located.error);
  const where = located.value;
  if (where.state === "found") return err({ code: "create-exists", path, spelled: where.spelled });
  if (where.state === "variant") return err({ code: "create-variant", path, spelled: where.spelled });
  return ok(`absent\t${path}${directory ? "/" : ""}`);
}

function absentRow(loc: Locator, raw: string): ResultAsync<string, AssumptionsFault> {
  return new ResultAsync(absentLine(loc, raw));
}

function section(title: string, rows: readonly string[]): string[] {
  return rows.length === 0 ? [] : [`# ${title}`, ...rows];
}

/**
 * Writes the text of a valid assumptions file for a batch: `unchanged` with the current digest
 * for every read and edit, `absent` for every create. A create that already exists, or exists
 * under a case or confusable variant spelling, is a fault and nothing is written.
 */
export function authorAssumptions(opts: AuthorOptions): ResultAsync<string, AssumptionsFault> {
  const loc = createLocator(opts.tree);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const reads = opts.reads ?? [];
  const edits = opts.edits ?? [];
  const creates = opts.creates ?? [];
  if (reads.length + edits.length + creates.length === 0) return errAsync({ code: "plan-empty" });
  const digests = (paths: readonly string[]) => ResultAsync.combine(paths.map((p) => unchangedRow(loc, p, maxBytes)));
  return ResultAsync.combine([digests(reads), digests(edits), ResultAsync.combine(creates.map((p) => absentRow(loc, p)))]).map(([r, e, c]) =>
    [
      `# assumptions of a batch, written against ${oneLine(opts.tree.describe)}`,
      ...section("the batch reads these: they must stay exactly as read", r),
      ...section("the batch edits these: they must be unchanged when it starts", e),
      ...section("the batch creates these: nothing may be there yet", c),
      "",
    ].join("\n"),
  );
}

function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ");
}
