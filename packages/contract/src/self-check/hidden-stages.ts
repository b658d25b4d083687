import { atxHeading, lineModel, uncommented } from "../plan/lines.js";
import { isStageHeading, STAGE_LIKE, stageText } from "../plan/sections.js";
import { proseLines } from "../plan/unread.js";
import type { FindingData } from "./findings.js";

/**
 * Rule 8: a stage heading that Markdown reads as code or as a comment, inside a block that closes
 * (an unclosed one is a fault when the plan is read). Fences that pair up wrongly (an opener left
 * unclosed, closed by the next block's opener) hide the stages between them with every block
 * closed; each such heading at the level of the plan's stage headings is named, unless a
 * `<!-- decay: prose -->` marker covers it or the one block right under the marker (an example of
 * the format). Nothing is checked without the plan's text.
 */
export function hiddenStageFindings(planText: string | undefined): FindingData[] {
  if (planText === undefined) return [];
  const model = lineModel(planText);
  const prose = proseLines(model);
  // Only a heading at the level of the plan's stage headings (at least 2 when it has none): `# Stage
  // 1: build` in a Dockerfile or `# Step 1` in a shell script is a comment of that language.
  const level = model.headings.find(isStageHeading)?.level;
  const atLevel = (n: number) => (level === undefined ? n >= 2 : n === level);
  const out: FindingData[] = [];
  // A marker covers the one code block or comment right under it too (the reader's marks skip such
  // blocks to reach the paragraph after them): blank lines may come between, and the block's end ends it.
  let marked: "no" | "waiting" | "in block" = "no";
  for (const [i, line] of model.lines.entries()) {
    if (model.proseMarks.has(i)) marked = "waiting";
    else if (line.hidden && marked === "waiting") marked = "in block";
    else if (!line.hidden && (marked === "in block" || line.text.trim() !== "")) marked = "no";
    if (!line.hidden || marked !== "no" || prose.has(i)) continue;
    const heading = atxHeading(uncommented(line.text));
    if (heading === null || !atLevel(heading.level) || !STAGE_LIKE.test(stageText(heading.text))) continue;
    out.push({ code: "hidden-stage", line: line.no, text: line.text.trim(), where: line.comment ? "comment" : "code" });
  }
  return out;
}
