import { atxHeading, lineModel, uncommented } from "../plan/lines.js";
import { STAGE_LIKE, stageText } from "../plan/sections.js";
import { proseLines } from "../plan/unread.js";
import type { FindingData } from "./findings.js";

/**
 * Rule 8: a stage heading that Markdown reads as code or as a comment, inside a block that closes
 * (an unclosed one is a fault when the plan is read). Fences that pair up wrongly (an opener left
 * unclosed, closed by the next block's opener) hide the stages between them with every block
 * closed; each such heading is named, unless a `<!-- decay: prose -->` marker covers it or its
 * block (an example of the format). Nothing is checked without the plan's text.
 */
export function hiddenStageFindings(planText: string | undefined): FindingData[] {
  if (planText === undefined) return [];
  const model = lineModel(planText);
  const prose = proseLines(model);
  const marks = new Set(model.proseMarks);
  const out: FindingData[] = [];
  // A marker covers the code or comment right under it too (the reader's marks skip such blocks to
  // reach the paragraph after them).
  let marked = false;
  for (const [i, line] of model.lines.entries()) {
    if (marks.has(i)) marked = true;
    else if (!line.hidden && line.text.trim() !== "") marked = false;
    if (!line.hidden || marked || prose.has(i)) continue;
    const heading = atxHeading(uncommented(line.text));
    if (heading === null || !STAGE_LIKE.test(stageText(heading.text))) continue;
    out.push({ code: "hidden-stage", line: line.no, text: line.text.trim(), where: line.comment ? "comment" : "code" });
  }
  return out;
}
