import { err, ok, type Result } from "neverthrow";
import { withoutBom } from "./decode.js";
import type { ContractFault } from "./fault.js";
import type { AcceptanceRow, Contract, CountExpect, Stage } from "./model.js";
import { bodyMismatch, type Recorded, verifyBody } from "./integrity.js";
import { readNumeral } from "./numeral.js";
import { encodingFault } from "./plan/read-plan.js";
import { CONTRACT_FORMAT, NONE, PREAMBLE, SUPPORTED_FORMATS, TABLE_DELIMITER, TABLE_HEADER } from "./render.js";
import { validated } from "./structure.js";
import { type Cursor, readCodeSpan, readInlineValue, splitRow } from "./text.js";

/** The lines being read, the cursor, and the 1-based line of each row read so far, one list per table. */
type Reader = { lines: string[]; i: number; rowLines: number[][] };
type R<T> = Result<T, ContractFault>;

const at = (r: Reader): string | undefined => r.lines[r.i]?.replace(/\r$/, "");

/** The reader's line is not what the format puts there; `found` names what was (the line itself unless given). */
function malformed<T>(r: Reader, expected: string, found: string = at(r) ?? "<end of file>"): R<T> {
  return err({ code: "contract-malformed", line: r.i + 1, expected, found });
}

function exact(r: Reader, text: string): R<void> {
  if (at(r) !== text) return malformed(r, JSON.stringify(text));
  r.i++;
  return ok(undefined);
}

function exactLines(r: Reader, texts: string[]): R<void> {
  for (const text of texts) {
    const step = exact(r, text);
    if (step.isErr()) return step;
  }
  return ok(undefined);
}

function field(r: Reader, key: string, shape?: RegExp): R<string> {
  const line = at(r);
  const prefix = `${key}: `;
  const value = line?.startsWith(prefix) ? readInlineValue(line.slice(prefix.length)) : null;
  if (value === null || (shape && !shape.test(value))) {
    return malformed(r, `${prefix}${shape ? shape.source.replace(/^\^\(?|\)?\$$/g, "") : "<value>"}`);
  }
  r.i++;
  return ok(value);
}

function skipBlank(r: Reader): void {
  while (at(r) === "") r.i++;
}

/** `- item` lines up to a blank line, or the line `None.` */
function readList(r: Reader): R<string[]> {
  if (at(r) === NONE) {
    r.i++;
    return ok([]);
  }
  const items: string[] = [];
  for (let line = at(r); line?.startsWith("- "); line = at(r)) {
    const v = readInlineValue(line.slice(2));
    if (v === null) return malformed(r, "a list item (text or a JSON string)");
    items.push(v);
    r.i++;
  }
  return items.length > 0 ? ok(items) : malformed(r, `a "- " list item or "${NONE}"`);
}

/** `format: X`: a version this reader does not read is a fault naming it and the supported ones. */
function format(r: Reader): R<void> {
  const found = /^format: ([^\r\n]*)$/.exec(at(r) ?? "")?.[1];
  if (found === undefined) return malformed(r, `format: ${CONTRACT_FORMAT}`);
  if (!SUPPORTED_FORMATS.includes(found)) return err({ code: "contract-version", line: r.i + 1, found, supported: SUPPORTED_FORMATS });
  r.i++;
  return ok(undefined);
}

/** `stages: N` and `body_sha256: HEX`: what the contract recorded about its own body. */
function recorded(r: Reader): R<Recorded> {
  const line = r.i + 1;
  return field(r, "stages", /^(0|[1-9]\d{0,5})$/).andThen((stages) =>
    field(r, "body_sha256", /^[0-9a-f]{64}$/).map((bodySha256) => ({ stages: Number(stages), bodySha256, line })),
  );
}

function frontMatter(r: Reader) {
  return exact(r, "---")
    .andThen(() => format(r))
    .andThen(() => field(r, "plan"))
    .andThen((plan) =>
      field(r, "plan_sha256").andThen((plan_sha256) =>
        field(r, "fresh_state", /^(head|worktree)$/).andThen((fresh) =>
          field(r, "commit_per_stage", /^(true|false)$/).andThen((commit) =>
            recorded(r).andThen((integrity) =>
              exact(r, "---").map(() => ({
                integrity,
                front: {
                  plan,
                  plan_sha256,
                  fresh_state: fresh as Contract["fresh_state"],
                  commit_per_stage: commit === "true",
                },
              })),
            ),
          ),
        ),
      ),
    );
}

/** A cell's code spans (each after its count, `withMin`); `numeral`: a count not written as `readNumeral` reads. */
type Spans = { spans: string[]; mins: number[]; numeral?: string };

function spanList(cell: string, withMin: boolean): Spans | null {
  const cur: Cursor = { text: cell, pos: 0 };
  const spans: string[] = [];
  const mins: number[] = [];
  while (cur.pos < cell.length) {
    if (spans.length > 0 && !cell.startsWith(", ", cur.pos)) return null;
    if (spans.length > 0) cur.pos += 2;
    if (withMin) {
      const m = /^(\d+) /.exec(cell.slice(cur.pos));
      if (!m?.[1]) return null;
      const min = readNumeral(m[1], Number.POSITIVE_INFINITY);
      if (min.isErr()) return { spans, mins, numeral: m[1] };
      mins.push(min.value);
      cur.pos += m[0].length;
    }
    const span = readCodeSpan(cur);
    if (span === null || span === "") return null;
    spans.push(span);
  }
  return { spans, mins };
}

function readRow(r: Reader): R<AcceptanceRow> {
  const cells = splitRow(at(r) ?? "");
  const [id, runCell, exit, prints, matches, least] = cells ?? [];
  const cur: Cursor = { text: runCell ?? "", pos: 0 };
  const run = readCodeSpan(cur);
  const contains = spanList(prints ?? "", false);
  const regexes = spanList(matches ?? "", false);
  const counts = spanList(least ?? "", true);
  if (cells?.length !== 6 || !id || run === null || cur.pos !== cur.text.length || !/^ *\d+ *$/.test(exit ?? "")) {
    return malformed(r, "a row: | id | `command` | exit | `printed`, … | `regex`, … | N `regex`, … |");
  }
  if (!contains || !regexes || !counts) return malformed(r, 'cells of code spans separated by ", "');
  // The range (0 to 255, a count at least 1 and a safe integer) is the schema's; how a number is written is this reader's.
  const code = readNumeral(exit ?? "", Number.POSITIVE_INFINITY);
  // A number not written as the renderer writes it (`00`, `007`, `  0  ` padded): the fault names it as written.
  if (code.isErr()) return malformed(r, "an exit code written with no leading zero and one space each side", exit ?? "");
  if (counts.numeral !== undefined) return malformed(r, "a count written with no leading zero", counts.numeral);
  const count: CountExpect[] = counts.spans.map((pattern, k) => ({ pattern, min: counts.mins[k] ?? 0 }));
  r.i++;
  const expect = { exit: code.value, stdout_contains: contains.spans, stdout_matches: regexes.spans, count };
  return ok({ id, run, expect });
}

function readTable(r: Reader): R<AcceptanceRow[]> {
  const rowLines: number[] = [];
  r.rowLines.push(rowLines);
  if (at(r) === NONE) {
    r.i++;
    return ok([]);
  }
  const head = exact(r, TABLE_HEADER).andThen(() => exact(r, TABLE_DELIMITER));
  if (head.isErr()) return err(head.error);
  const rows: AcceptanceRow[] = [];
  while (at(r)?.startsWith("|")) {
    rowLines.push(r.i + 1);
    const row = readRow(r);
    if (row.isErr()) return err(row.error);
    rows.push(row.value);
  }
  return ok(rows);
}

function readFenced(r: Reader): R<string> {
  const fence = /^(~{3,})markdown$/.exec(at(r) ?? "")?.[1];
  if (!fence) return malformed(r, "a ~~~markdown fence");
  const from = ++r.i;
  while (r.i < r.lines.length && at(r) !== fence) r.i++;
  if (r.i >= r.lines.length) return malformed(r, `the closing fence ${fence}`);
  const text = r.lines.slice(from, r.i).join("\n");
  r.i++;
  return ok(text);
}

function readMeta(r: Reader) {
  return field(r, "- label").andThen((label) =>
    field(r, "- depends_on", /^(none|S\d+(, S\d+)*)$/).andThen((deps) =>
      field(r, "- optional", /^(true|false)$/).andThen((optional) => {
        const exit = at(r)?.startsWith("- exit_criterion: ") ? field(r, "- exit_criterion") : ok(null);
        return exit.map((exit_criterion) => ({
          label,
          depends_on: deps === "none" ? [] : deps.split(", "),
          optional: optional === "true",
          exit_criterion,
        }));
      }),
    ),
  );
}

function readStage(r: Reader): R<Stage> {
  const head = /^## (S\d+): ([^\r\n]*)$/.exec(at(r) ?? "");
  const title = head?.[2] !== undefined ? readInlineValue(head[2]) : null;
  if (!head?.[1] || title === null) return malformed(r, "a stage heading ## S<n>: <title>");
  const id = head[1];
  r.i++;
  return exact(r, "")
    .andThen(() => readMeta(r))
    .andThen((meta) =>
      exactLines(r, ["", "### Instructions", ""])
        .andThen(() => readFenced(r))
        .andThen((instructions) =>
          exactLines(r, ["", "### Acceptance", ""])
            .andThen(() => readTable(r))
            .map((acceptance) => ({ id, title, ...meta, instructions, acceptance })),
        ),
    );
}

function readBody(r: Reader) {
  skipBlank(r);
  return exactLines(r, ["# Acceptance contract", "", PREAMBLE, "", "## Guardrails", ""])
    .andThen(() => readList(r))
    .andThen((guardrails) =>
      exactLines(r, ["", "## Falsifiers", ""])
        .andThen(() => readList(r))
        .map((falsifiers) => ({ guardrails, falsifiers })),
    );
}

function readStages(r: Reader): R<{ stages: Stage[]; lines: number[] }> {
  const stages: Stage[] = [];
  const lines: number[] = [];
  for (;;) {
    const gap = r.i;
    skipBlank(r);
    if (r.i >= r.lines.length) break;
    if (r.i === gap) return malformed(r, "a blank line before the next stage");
    lines.push(r.i + 1);
    const stage = readStage(r);
    if (stage.isErr()) return err(stage.error);
    stages.push(stage.value);
  }
  return ok({ stages, lines });
}

/** True when a text opens with contract front matter (`---` then a `format: decay-contract/…` line, any version); one BOM is allowed. */
export function looksLikeContract(text: string): boolean {
  return /^\uFEFF?---\r?\nformat: decay-contract\//.test(text);
}

/**
 * Read a contract.md written by `renderContract` (docs/contract-format.md); every fault names the
 * line. One leading BOM is accepted; a second is a `repeated-bom` fault. The recorded stage count
 * and body digest are verified: a truncated or edited contract is a `contract-integrity` fault, an
 * unknown format a `contract-version` one, and one whose line endings became CRLF (the renderer
 * writes LF) a `contract-crlf` one.
 */
export function parseContract(markdown: string): Result<Contract, ContractFault> {
  const text = withoutBom(markdown);
  if (text.isErr()) return err(text.error);
  const r: Reader = { lines: text.value.split("\n"), i: 0, rowLines: [] };
  // The plan reader's refusal of NUL characters: a contract holding one was not compiled so.
  const nul = encodingFault(text.value);
  if (nul !== null) return err(nul);
  if (r.lines[0] === "---\r") return err({ code: "contract-crlf", line: 1 });
  return frontMatter(r).andThen(({ front, integrity }) => {
    const body = r.lines.slice(r.i).join("\n");
    const parsed = readBody(r).andThen((lists) => readStages(r).map((s) => ({ lists, ...s })));
    if (parsed.isErr()) return err(bodyMismatch(integrity, body) ?? parsed.error);
    const { lists, stages, lines } = parsed.value;
    return validated(front, lists, stages, { stages: lines, rows: r.rowLines }).andThen((contract) =>
      verifyBody(integrity, body, stages.length).map(() => contract),
    );
  });
}
