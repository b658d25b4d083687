import { err, errAsync, ok, Result, ResultAsync } from "neverthrow";
import type { TreeReader } from "../tree.js";
import { digestAt } from "./digest.js";
import { inFlightOf, inTurn } from "./in-turn.js";
import type { AssumptionsFault } from "./faults.js";
import { locate } from "./locate.js";
import { createLocator, type Locator } from "./plain.js";
import { parsePath } from "./path.js";
import { maxBytesOption } from "./read.js";

/** Options of `authorAssumptions`: the paths a batch reads, edits and creates. */
export interface AuthorOptions {
  readonly tree: TreeReader;
  readonly reads?: readonly string[];
  readonly edits?: readonly string[];
  readonly creates?: readonly string[];
  /** Largest file read, in bytes; default 64 MiB. A positive integer, else an `option-invalid` fault. */
  readonly maxBytes?: number;
}

async function unchangedLine(loc: Locator, raw: string, maxBytes: number): Promise<Result<string, AssumptionsFault>> {
  return (await digestAt(loc, raw, maxBytes)).map(({ path, hex }) => `unchanged\t${path}\t${hex}`);
}

async function absentLine(loc: Locator, raw: string): Promise<Result<string, AssumptionsFault>> {
  const parsed = parsePath(raw);
  if (parsed.isErr()) return err(parsed.error);
  const { path, directory } = parsed.value;
  const located = await locate(loc, path);
  if (located.isErr()) return err(located.error);
  const where = located.value;
  if (where.state === "found") return err({ code: "create-exists", path, spelled: where.spelled });
  if (where.state === "variant") return err({ code: "create-variant", path, spelled: where.spelled });
  return ok(`absent\t${path}${directory ? "/" : ""}`);
}

type Line = () => Promise<Result<string, AssumptionsFault>>;

// Every line worked out, `width` at a time (as many calls waiting on the reader as it takes at
// once): all of them in order, or the first fault in input order.
async function inOrder(lines: readonly Line[], width: number): Promise<Result<string[], AssumptionsFault>> {
  const done: Result<string, AssumptionsFault>[] = new Array(lines.length);
  await inTurn(
    lines.map((_, k) => k),
    width,
    () => false,
    async (k) => {
      done[k] = await (lines[k] as Line)();
    },
  );
  return Result.combine(done);
}

function section(title: string, rows: readonly string[]): string[] {
  return rows.length === 0 ? [] : [`# ${title}`, ...rows];
}

/**
 * Writes the text of a valid assumptions file for a batch: `unchanged` with the current digest
 * for every read and edit, `absent` for every create. A create that already exists, or exists
 * under a case or confusable variant spelling, is a fault and nothing is written (the first in
 * input order: reads, then edits, then creates). At most the reader's `inFlight` paths (16
 * unless it says) are worked on at once.
 */
export function authorAssumptions(opts: AuthorOptions): ResultAsync<string, AssumptionsFault> {
  const checked = maxBytesOption(opts.maxBytes);
  if (checked.isErr()) return errAsync(checked.error);
  const maxBytes = checked.value;
  const loc = createLocator(opts.tree);
  const reads = opts.reads ?? [];
  const edits = opts.edits ?? [];
  const creates = opts.creates ?? [];
  if (reads.length + edits.length + creates.length === 0) return errAsync({ code: "plan-empty" });
  const lines: Line[] = [
    ...[...reads, ...edits].map(
      (p): Line =>
        () =>
          unchangedLine(loc, p, maxBytes),
    ),
    ...creates.map(
      (p): Line =>
        () =>
          absentLine(loc, p),
    ),
  ];
  return new ResultAsync(inOrder(lines, inFlightOf(opts.tree))).map((all) =>
    [
      `# assumptions of a batch, written against ${oneLine(opts.tree.describe)}`,
      ...section("the batch reads these: they must stay exactly as read", all.slice(0, reads.length)),
      ...section("the batch edits these: they must be unchanged when it starts", all.slice(reads.length, reads.length + edits.length)),
      ...section("the batch creates these: nothing may be there yet", all.slice(reads.length + edits.length)),
      "",
    ].join("\n"),
  );
}

function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ");
}
