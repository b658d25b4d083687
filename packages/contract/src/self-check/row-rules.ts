import type { AcceptanceRow, Stage } from "../model.js";
import { runView } from "./commands.js";
import type { FindingData } from "./findings.js";
import { outwardWrite } from "./outward.js";
import { positionals, programName } from "./words.js";
import { testRunner } from "./runners.js";

const REVIEW_NOTE = /REVIEW:|\bTODO\b|\bFIXME\b|NOTE:/;

/** Rule 2 (part): a review note anywhere in the row's command or expectations. */
function reviewNote(row: AcceptanceRow): string | null {
  const texts = [row.run, ...row.expect.stdout_contains, ...row.expect.stdout_matches, ...row.expect.count.map((c) => c.pattern)];
  for (const t of texts) {
    const m = REVIEW_NOTE.exec(t);
    if (m) return m[0];
  }
  return null;
}

const isClone = (argv: string[]) => programName(argv[0] ?? "") === "git" && positionals(argv)[0] === "clone";

const byExitAlone = (row: AcceptanceRow) => row.expect.stdout_contains.length === 0 && row.expect.stdout_matches.length === 0 && row.expect.count.length === 0;

/** Rules 2, 3 and 6 for one row: review notes, git clone, outward writes, opaque commands, weak runners. */
export function rowFindings(stage: Stage, row: AcceptanceRow, name: string): FindingData[] {
  const at = { stage: stage.id, row: row.id, name };
  const out: FindingData[] = [];
  const marker = reviewNote(row);
  if (marker) out.push({ code: "review-note", marker, ...at });
  const view = runView(row.run);
  if (view.commands.some(isClone)) out.push({ code: "git-clone", ...at });
  const writes = new Set(view.commands.map(outwardWrite).filter((w): w is string => w !== null));
  for (const what of writes) out.push({ code: "writes-outward", what, ...at });
  for (const what of new Set(view.opaque)) out.push({ code: "opaque-command", what, ...at });
  const runner = view.commands.map(testRunner).find((r) => r !== null);
  if (runner && byExitAlone(row)) out.push({ code: "weak-row", runner, ...at });
  return out;
}
