import { planSha256 } from "./compile.js";
import type { AcceptanceRow, Contract, Stage } from "./model.js";
import { codeSpan, escapeCell, inlineValue, tildeFence } from "./text.js";

/**
 * The `format:` value in the front matter of every contract.md. Version 2 records the stage count
 * and the body's SHA-256 (`stages:`, `body_sha256:`), which the parser verifies.
 */
export const CONTRACT_FORMAT = "decay-contract/2";

/** Every `format:` value `parseContract` reads. */
export const SUPPORTED_FORMATS: readonly string[] = [CONTRACT_FORMAT];

/** The fixed header row of a stage's acceptance table. */
export const TABLE_HEADER = "| id | run | exit | prints | matches | at least |";
/** The fixed delimiter row of a stage's acceptance table. */
export const TABLE_DELIMITER = "| --- | --- | --- | --- | --- | --- |";
/** The line written instead of an empty list or an empty table. */
export const NONE = "None.";
/** The paragraph under the title: fixed text, written and expected verbatim. */
export const PREAMBLE =
  'This contract alone decides "done": a stage is done when every row of its acceptance table exits and prints as written, in a fresh clone of the committed HEAD.';

function fenced(info: string, text: string): string[] {
  const fence = tildeFence(text);
  return [`${fence}${info}`, text, fence];
}

function list(items: string[]): string[] {
  return items.length === 0 ? [NONE] : items.map((i) => `- ${inlineValue(i)}`);
}

function rowLine(row: AcceptanceRow): string {
  const spans = (xs: string[]) => xs.map(codeSpan).join(", ");
  const cells = [
    row.id,
    codeSpan(row.run),
    String(row.expect.exit),
    spans(row.expect.stdout_contains),
    spans(row.expect.stdout_matches),
    row.expect.count.map((c) => `${c.min} ${codeSpan(c.pattern)}`).join(", "),
  ];
  return `| ${cells.map(escapeCell).join(" | ")} |`;
}

function stageLines(stage: Stage): string[] {
  const meta = [
    `- label: ${inlineValue(stage.label)}`,
    `- depends_on: ${stage.depends_on.length === 0 ? "none" : stage.depends_on.join(", ")}`,
    `- optional: ${stage.optional}`,
  ];
  if (stage.exit_criterion !== null) meta.push(`- exit_criterion: ${inlineValue(stage.exit_criterion)}`);
  const table = stage.acceptance.length === 0 ? [NONE] : [TABLE_HEADER, TABLE_DELIMITER, ...stage.acceptance.map(rowLine)];
  return [
    `## ${stage.id}: ${inlineValue(stage.title)}`,
    "",
    ...meta,
    "",
    "### Instructions",
    "",
    ...fenced("markdown", stage.instructions),
    "",
    "### Acceptance",
    "",
    ...table,
    "",
  ];
}

/** Write a contract as contract.md (the format in docs/contract-format.md); `parseContract` reads it back. */
export function renderContract(contract: Contract): string {
  const body = [
    "",
    "# Acceptance contract",
    "",
    PREAMBLE,
    "",
    "## Guardrails",
    "",
    ...list(contract.guardrails),
    "",
    "## Falsifiers",
    "",
    ...list(contract.falsifiers),
    "",
    ...contract.stages.flatMap(stageLines),
  ].join("\n");
  return [
    "---",
    `format: ${CONTRACT_FORMAT}`,
    `plan: ${inlineValue(contract.plan)}`,
    `plan_sha256: ${contract.plan_sha256}`,
    `fresh_state: ${contract.fresh_state}`,
    `commit_per_stage: ${contract.commit_per_stage}`,
    `stages: ${contract.stages.length}`,
    `body_sha256: ${planSha256(body)}`,
    "---",
    body,
  ].join("\n");
}
