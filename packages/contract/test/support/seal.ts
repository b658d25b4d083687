import { planSha256 } from "../../src/compile.js";
import { CONTRACT_FORMAT } from "../../src/render.js";

/**
 * Test helper: re-seals a hand-edited contract.md (format 1 or 2) as format 2, writing the stage
 * count and body digest its text now has, so a test can exercise a rule past the integrity check.
 */
export function sealContract(markdown: string): string {
  const lines = markdown.split("\n");
  const close = lines.indexOf("---", 1);
  if (lines[0] !== "---" || close === -1) return markdown;
  const front = lines.slice(1, close).filter((l) => !l.startsWith("stages: ") && !l.startsWith("body_sha256: "));
  const body = lines.slice(close + 1).join("\n");
  const stages = lines.slice(close + 1).filter((l) => /^## S\d+: /.test(l)).length;
  const format = front.map((l) => (l.startsWith("format: decay-contract/") ? `format: ${CONTRACT_FORMAT}` : l));
  return ["---", ...format, `stages: ${stages}`, `body_sha256: ${planSha256(body)}`, "---", body].join("\n");
}
